/**
 * Test support (not shipped API): a real webhook on 127.0.0.1 that records what it gets and answers
 * as each test scripts, and a driver that moves `TestClock` through the queue's backoff waits.
 *
 * @module
 */
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { Duration, Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import type { PushEvent } from "../../src/push/push-events.ts"

/** One request the stub received. */
export interface ReceivedCall {
  readonly call: number
  readonly path: string
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly body: string
}

/** The stub's answer to a call: a status (and headers), possibly after a wait the test controls. */
export type Responder = (call: ReceivedCall) => number | { status: number; headers?: Record<string, string> } | Promise<number>

/** A running stub. */
export interface WebhookStub {
  readonly url: string
  readonly port: number
  /** Every call, in arrival order. */
  readonly calls: Array<ReceivedCall>
  /** Calls answered 2xx, in arrival order. */
  readonly accepted: Array<ReceivedCall>
  readonly close: () => Promise<void>
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })

/** Starts a stub on 127.0.0.1, port 0. */
export const startWebhookStub = async (respond: Responder = () => 200): Promise<WebhookStub> => {
  const calls: Array<ReceivedCall> = []
  const accepted: Array<ReceivedCall> = []
  const server = createServer(async (req, res) => {
    const call: ReceivedCall = {
      call: calls.length + 1,
      path: req.url ?? "/",
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(",") : v])),
      body: await readBody(req)
    }
    calls.push(call)
    const answer = await respond(call)
    const { status, headers } = typeof answer === "number" ? { status: answer, headers: {} } : answer
    if (status >= 200 && status < 300) accepted.push(call)
    res.writeHead(status, headers).end()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    calls,
    accepted,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** Collects push events and the backoff waits the test clock must cover. */
export const eventLog = () => {
  const events: Array<PushEvent> = []
  const waits: Array<number> = []
  return {
    events,
    waits,
    onEvent: (event: PushEvent) =>
      Effect.sync(() => {
        events.push(event)
        if (event._tag === "PushRetrying") waits.push(event.delayMs)
      })
  }
}

/**
 * Waits (a few ms of real time per step, bounded) until `done` completes, advancing `TestClock` by
 * each backoff wait the queue announced, so retries happen without real sleeps.
 */
export const driveUntil = <A, E>(done: Effect.Effect<A, E>, waits: Array<number>, maxSteps = 2000) =>
  Effect.gen(function*() {
    const fiber = yield* Effect.forkChild(done)
    for (let step = 0; step < maxSteps; step++) {
      const exit = fiber.pollUnsafe()
      if (exit !== undefined) return yield* exit
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 2)))
      const wait = waits.shift()
      if (wait !== undefined) yield* TestClock.adjust(Duration.millis(wait))
    }
    yield* Fiber.interrupt(fiber)
    return yield* Effect.die("driveUntil: the queue did not settle in time")
  })
