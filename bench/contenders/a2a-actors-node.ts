/**
 * This project on Node: the `@effect/platform-node` fast path, or the Web handler with `--web`.
 * `--ttl <ms>` and `--log-window <n>`: see `benchServer`.
 */
import { serveNode } from "../../src/adapters/node.ts"
import { benchServer, serverArgs } from "./a2a-actors-agent.ts"
import { announce, argValue, hasFlag } from "./control.ts"

const listening = await serveNode(await benchServer(serverArgs(argValue)), {
  port: 0,
  host: "127.0.0.1",
  web: hasFlag("web")
})
announce(listening.url)
