/**
 * Each load target's keep-alive connection pool. It is kept beside `Target` rather than on it, so that the
 * `Target` type (reachable from `a2a-actors/client`) needs no Node declarations and Bun and Deno projects
 * type-check without `@types/node`.
 *
 * @module
 */
import type { Agent } from "node:http"
import type { Target } from "../load-client.ts"

/** The pool `makeTarget` opened for a target. */
export const connectionPools: WeakMap<Target, Agent> = new WeakMap()
