/**
 * A small webhook that receives A2A push notifications, verifies them (JWT signature against the
 * agent's JWKS, audience, time window, replay, optional token) and prints each task's state.
 *
 *   npx tsx examples/push-receiver.ts --jwks http://localhost:4000/.well-known/jwks.json [--port 5050] [--token T]
 *
 * Then give the agent `http://<this host>:5050/a2a/notifications` as the push config URL.
 */
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { pathToFileURL } from "node:url"
import { parseArgs } from "node:util"
import { Effect, Result } from "effect"
import type { Task } from "../schemas/index.ts"
import { makePushVerifier } from "../src/push/verifier.ts"

/** Options of {@link startReceiver}. */
export interface ReceiverOptions {
  /** Port to listen on (0 picks a free one). */
  readonly port?: number
  readonly host?: string
  /** The agent's JWKS, e.g. `https://agent.example.com/.well-known/jwks.json`. */
  readonly jwksUrl: string
  /** This webhook's URL as given in the push config (default: the listening URL plus `path`). */
  readonly audience?: string
  readonly path?: string
  /** The expected `X-A2A-Notification-Token`, if the push config set one. */
  readonly token?: string
  /** The agent's base URL, checked against `iss` when given. */
  readonly issuer?: string
  /** Called with every verified task (default: print its id and state). */
  readonly onTask?: (task: Task) => void
}

/** A running receiver. */
export interface Receiver {
  readonly url: string
  readonly port: number
  /** Verified tasks, in arrival order. */
  readonly received: ReadonlyArray<Task>
  readonly close: () => Promise<void>
}

const maxBody = 1024 * 1024

const readBody = (req: IncomingMessage) =>
  new Promise<string | undefined>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    req.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBody) {
        resolve(undefined)
        req.destroy()
      } else chunks.push(chunk)
    })
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })

/** Starts the receiver; resolves once it listens. */
export const startReceiver = async (options: ReceiverOptions): Promise<Receiver> => {
  const path = options.path ?? "/a2a/notifications"
  const received: Array<Task> = []
  const onTask = options.onTask ?? ((task: Task) => console.log(`task ${task.id}: ${task.status.state}`))
  let verify: ReturnType<typeof makePushVerifier>["verify"] | undefined

  const server = createServer(async (req, res) => {
    if (new URL(req.url ?? "/", "http://receiver").pathname !== path) return void res.writeHead(404).end()
    if (req.method !== "POST") return void res.writeHead(405, { allow: "POST" }).end()
    const body = await readBody(req)
    if (body === undefined) return void res.writeHead(413).end()
    const header = (name: string) => {
      const value = req.headers[name]
      return Array.isArray(value) ? value[0] : value
    }
    const result = await Effect.runPromise(Effect.result(verify!({
      authorization: header("authorization"),
      token: header("x-a2a-notification-token"),
      body
    })))
    if (Result.isFailure(result)) {
      res.writeHead(result.failure.reason === "bad-body" ? 400 : 401, { "content-type": "text/plain" })
      return void res.end(`${result.failure.reason}\n`)
    }
    received.push(result.success.task)
    onTask(result.success.task)
    res.writeHead(204).end()
  })

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve())
  })
  const address = server.address() as AddressInfo
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address
  const url = `http://${host}:${address.port}${path}`
  verify = makePushVerifier({
    audience: options.audience ?? url,
    keys: { jwksUrl: options.jwksUrl },
    ...(options.token === undefined ? {} : { token: options.token }),
    ...(options.issuer === undefined ? {} : { issuer: options.issuer })
  }).verify

  return {
    url,
    port: address.port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      jwks: { type: "string" },
      port: { type: "string", default: "5050" },
      host: { type: "string", default: "127.0.0.1" },
      token: { type: "string" },
      issuer: { type: "string" },
      audience: { type: "string" }
    }
  })
  if (values.jwks === undefined) {
    console.error("usage: push-receiver --jwks <agent JWKS URL> [--port 5050] [--token T] [--issuer URL] [--audience URL]")
    process.exit(2)
  }
  const receiver = await startReceiver({
    jwksUrl: values.jwks,
    port: Number(values.port),
    host: values.host,
    ...(values.token === undefined ? {} : { token: values.token }),
    ...(values.issuer === undefined ? {} : { issuer: values.issuer }),
    ...(values.audience === undefined ? {} : { audience: values.audience })
  })
  console.log(`receiving push notifications at ${receiver.url}`)
}
