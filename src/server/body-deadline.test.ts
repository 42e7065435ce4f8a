/**
 * The deadline on receiving request bodies (what the Deno adapter gives the server): one timer for every body
 * awaited, a body still arriving when it passes given up on (its stream cancelled, its bytes in flight given
 * back) and answered 408, a body that is in never cut however long its request then takes.
 */
import { Cause, Context, Effect, Exit, Fiber } from "effect"
import { HttpServerRequest } from "effect/http"
import { afterEach, describe, expect, it, vi } from "vitest"
import { Agent } from "../agent/agent.ts"
import { testCard } from "../../testing/server/test-agent.ts"
import { A2AServer } from "./a2a-server.ts"
import { type BodyDeadline, CurrentBodyDeadline, makeBodyDeadline } from "./body-deadline.ts"
import { makeBodyBudget, readBody } from "./body.ts"

afterEach(() => {
  vi.useRealTimers()
})

describe("makeBodyDeadline", () => {
  it("expires each body once its time has passed, in order, and never one whose watch was cleared", () => {
    vi.useFakeTimers()
    const deadline = makeBodyDeadline(100)
    const expired: Array<string> = []
    const first = deadline.watch(() => expired.push("first"))
    vi.advanceTimersByTime(40)
    deadline.watch(() => expired.push("second"))
    vi.advanceTimersByTime(40)
    const third = deadline.watch(() => expired.push("third"))
    first.clear()
    vi.advanceTimersByTime(30) // 110 ms: `first` would be due, but it was cleared
    expect(expired).toEqual([])
    vi.advanceTimersByTime(30) // 140 ms: `second` is due
    expect(expired).toEqual(["second"])
    third.clear()
    vi.advanceTimersByTime(1_000)
    expect(expired).toEqual(["second"])
    expect(vi.getTimerCount()).toBe(0)
  })

  it("waits for many bodies with one timer, and a cleared watch costs no timer call", () => {
    vi.useFakeTimers()
    const deadline = makeBodyDeadline(30_000)
    const watches = Array.from({ length: 100 }, () => deadline.watch(() => undefined))
    expect(vi.getTimerCount()).toBe(1)
    const sets = vi.spyOn(globalThis, "setTimeout")
    const clears = vi.spyOn(globalThis, "clearTimeout")
    for (const watch of watches) watch.clear()
    for (let i = 0; i < 100; i++) deadline.watch(() => undefined).clear()
    expect(sets).not.toHaveBeenCalled()
    expect(clears).not.toHaveBeenCalled()
    expect(vi.getTimerCount()).toBe(1)
  })

  it("expires nothing once closed, and leaves no timer behind", () => {
    vi.useFakeTimers()
    const deadline = makeBodyDeadline(100)
    const expired: Array<number> = []
    deadline.watch(() => expired.push(1))
    deadline.close()
    deadline.watch(() => expired.push(2))
    expect(vi.getTimerCount()).toBe(0)
    vi.advanceTimersByTime(1_000)
    expect(expired).toEqual([])
  })
})

/** A deadline the test expires by hand. */
const manualDeadline = () => {
  const live = new Set<() => void>()
  let cleared = 0
  const deadline: BodyDeadline = {
    ms: 1_000,
    watch: (expire) => {
      live.add(expire)
      return { clear: () => void (live.delete(expire) && cleared++) }
    },
    close: () => live.clear()
  }
  const expireAll = () => {
    const due = [...live]
    live.clear()
    for (const expire of due) expire()
  }
  return { deadline, expireAll, live: () => live.size, cleared: () => cleared }
}

/** A body the test feeds chunk by chunk, recording whether it was cancelled. */
const fedBody = () => {
  let controller!: ReadableStreamDefaultController<Uint8Array>
  let canceled = false
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: () => void (canceled = true)
  })
  const encoder = new TextEncoder()
  return {
    stream,
    send: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
    canceled: () => canceled
  }
}

const post = (body: ReadableStream<Uint8Array>, length?: number) =>
  HttpServerRequest.fromWeb(new Request("http://127.0.0.1/", {
    method: "POST",
    headers: length === undefined ? {} : { "content-length": String(length) },
    body,
    duplex: "half"
  } as RequestInit))

const read = (request: HttpServerRequest.HttpServerRequest, deadline: BodyDeadline, limit = 1_024, budget = makeBodyBudget(4_096)) =>
  Effect.runFork(Effect.provideService(readBody(request, limit, budget), CurrentBodyDeadline, deadline))

/** The tag of the error a read failed with, or "success". */
const outcome = (exit: Exit.Exit<Uint8Array, { readonly _tag: string }>) =>
  Exit.isSuccess(exit) ? "success" : (Cause.squash(exit.cause) as { readonly _tag: string })._tag

const settle = () => new Promise((resolve) => setTimeout(resolve, 10))

describe("reading a body under a deadline", () => {
  it("takes a body that arrives in time, in pieces, and stops watching it", async () => {
    const { deadline, live, cleared } = manualDeadline()
    const budget = makeBodyBudget(4_096)
    const body = fedBody()
    const fiber = read(post(body.stream, 7), deadline, 1_024, budget)
    await settle()
    expect(live()).toBe(1)
    expect(budget.inFlight()).toBe(7)
    body.send("{\"a\":")
    await settle()
    body.send("1}")
    body.end()
    const exit = await Effect.runPromise(Fiber.await(fiber))
    expect(Exit.isSuccess(exit) && new TextDecoder().decode(exit.value)).toBe("{\"a\":1}")
    expect(live()).toBe(0)
    expect(cleared()).toBe(1)
    expect(budget.inFlight()).toBe(0)
  })

  it("gives up on a body still arriving when the deadline passes: its stream is cancelled, its bytes given back", async () => {
    const { deadline, expireAll } = manualDeadline()
    const budget = makeBodyBudget(4_096)
    const body = fedBody()
    const fiber = read(post(body.stream, 100), deadline, 1_024, budget)
    body.send("{\"a\":")
    await settle()
    expect(budget.inFlight()).toBe(100)
    expireAll()
    const exit = await Effect.runPromise(Fiber.await(fiber))
    expect(outcome(exit)).toBe("BodyTooSlow")
    await settle()
    expect(body.canceled()).toBe(true)
    expect(budget.inFlight()).toBe(0)
  })

  it("keeps the size limit and the bytes-in-flight bound on a body without a declared length", async () => {
    const { deadline, live } = manualDeadline()
    const budget = makeBodyBudget(4_096)
    const body = fedBody()
    const fiber = read(post(body.stream), deadline, 8, budget)
    body.send("12345")
    await settle()
    expect(budget.inFlight()).toBe(5)
    body.send("67890")
    const exit = await Effect.runPromise(Fiber.await(fiber))
    expect(outcome(exit)).toBe("BodyTooLarge")
    await settle()
    expect(body.canceled()).toBe(true)
    expect(budget.inFlight()).toBe(0)
    expect(live()).toBe(0)

    const full = makeBodyBudget(4)
    const busy = fedBody()
    const refused = read(post(busy.stream), deadline, 1_024, full)
    busy.send("12345")
    const busyExit = await Effect.runPromise(Fiber.await(refused))
    expect(outcome(busyExit)).toBe("BodiesBusy")
    expect(full.inFlight()).toBe(0)
  })

  it("cancels the body, gives back its bytes and stops watching it when the read is interrupted", async () => {
    const { deadline, live } = manualDeadline()
    const budget = makeBodyBudget(4_096)
    const body = fedBody()
    const fiber = read(post(body.stream, 50), deadline, 1_024, budget)
    await settle()
    expect(budget.inFlight()).toBe(50)
    await Effect.runPromise(Fiber.interrupt(fiber))
    await settle()
    expect(body.canceled()).toBe(true)
    expect(budget.inFlight()).toBe(0)
    expect(live()).toBe(0)
  })
})

describe("the server's Web handler under a body deadline", () => {
  const slowAgent = Agent.make({
    card: testCard(),
    // Answers well after the deadline: only receiving the body counts.
    execute: (ctx) => Effect.flatMap(Effect.sleep(300), () => ctx.complete("late but whole"))
  })
  const send = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "message/send",
    params: { message: { kind: "message", role: "user", messageId: "m-1", parts: [{ kind: "text", text: "hi" }] } }
  })

  it("answers 408 with the JSON-RPC error and closes the connection when the body comes too late", async () => {
    const server = await A2AServer.make(slowAgent)
    const deadline = makeBodyDeadline(100)
    try {
      const body = fedBody()
      body.send(send.slice(0, 10))
      const response = await server.handler(
        new Request("http://127.0.0.1/", {
          method: "POST",
          headers: { "content-type": "application/json", "content-length": String(send.length) },
          body: body.stream,
          duplex: "half"
        } as RequestInit),
        Context.make(CurrentBodyDeadline, deadline)
      )
      expect(response.status).toBe(408)
      expect(response.headers.get("connection")).toBe("close")
      expect(await response.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } })
      expect(body.canceled()).toBe(true)
      expect(server.bodyBytesInFlight()).toBe(0)
    } finally {
      deadline.close()
      await server.dispose({ graceMs: 0 })
    }
  })

  it("does not cut a request whose body is in, however long its answer takes", async () => {
    const server = await A2AServer.make(slowAgent)
    const deadline = makeBodyDeadline(100)
    try {
      const response = await server.handler(
        new Request("http://127.0.0.1/", { method: "POST", headers: { "content-type": "application/json" }, body: send }),
        Context.make(CurrentBodyDeadline, deadline)
      )
      expect(response.status).toBe(200)
      expect(await response.json()).toMatchObject({ result: { status: { state: "completed" } } })
    } finally {
      deadline.close()
      await server.dispose({ graceMs: 0 })
    }
  })
})
