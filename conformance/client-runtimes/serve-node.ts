/**
 * `Serve` on Node: the `node:http` bridge of the client tests, which destroys the connection when a
 * response body errors (the cut the resume checks need) and cancels the body when the client leaves.
 *
 * @module
 */
import { serveWebHandler } from "../../testing/client/node-server.ts"
import type { Serve } from "./serve.ts"

/** Serves a Web handler with `node:http` on 127.0.0.1, port 0. */
export const serveNode: Serve = serveWebHandler
