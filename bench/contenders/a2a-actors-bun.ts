/** This project on Bun (`Bun.serve`). `--ttl <ms>` and `--log-window <n>`: see `benchServer`. */
import { serveBun } from "../../src/adapters/bun.ts"
import { benchServer, serverArgs } from "./a2a-actors-agent.ts"
import { announce, argValue } from "./control.ts"

const listening = await serveBun(await benchServer(serverArgs(argValue)), { port: 0, host: "127.0.0.1" })
announce(listening.url)
