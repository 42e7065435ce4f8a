/** This project on Deno (`Deno.serve`). `--ttl <ms>` and `--log-window <n>`: see `benchServer`. */
import { serveDeno } from "../../src/adapters/deno.ts"
import { benchServer, serverArgs } from "./a2a-actors-agent.ts"
import { announce, argValue } from "./control.ts"

const listening = await serveDeno(await benchServer(serverArgs(argValue)), { port: 0, host: "127.0.0.1" })
announce(listening.url)
