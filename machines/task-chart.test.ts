import { describe, expect, it } from "vitest"
import { createActor, type Actor } from "xstate"
import type { Message } from "../schemas/index.ts"
import { compileChart } from "./internal/compile-chart.ts"
import { keyCount, keyOf, taskChartEvents, unsupportedEvent, unsupportedKey } from "./task-chart-events.ts"
import { taskMachine } from "./task-machine.ts"
import {
  start,
  step,
  type TaskChartEvent,
  type TaskEffect,
  type TaskEvent,
  type TaskMachineSnapshot,
  type TaskSnapshot,
  type TaskStreamEvent
} from "./task.ts"

/** A seeded pseudo-random generator (mulberry32): the same sequences on every run. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
type Random = ReturnType<typeof random>
const pick = <T>(next: Random, xs: ReadonlyArray<T>): T => xs[Math.floor(next() * xs.length)]!

/** A live actor of the chart, and the effects it emitted for the last event sent. */
const liveActor = () => {
  let seen: Array<TaskEffect> = []
  const actor = createActor(taskMachine)
  actor.on("*", (effect) => {
    seen.push(effect)
  })
  actor.start()
  const send = (event: TaskChartEvent | typeof unsupportedEvent): ReadonlyArray<TaskEffect> => {
    seen = []
    actor.send(event as TaskChartEvent)
    return seen
  }
  return { actor, send }
}

const persisted = (snapshot: TaskMachineSnapshot) => taskMachine.getPersistedSnapshot(snapshot)
const isDone = (actor: Actor<typeof taskMachine>) => actor.getSnapshot().status !== "active"

const chart = compileChart<TaskMachineSnapshot, TaskEffect>(taskMachine, taskChartEvents)

describe("the chart's event space", () => {
  it("gives every event its own key, and every key an event", () => {
    expect(taskChartEvents).toHaveLength(keyCount)
    // An event type the chart does not name falls on the unsupported key, as the probe standing for them does.
    taskChartEvents.forEach((event, key) => expect(keyOf(event as TaskChartEvent)).toBe(key))
    expect(taskChartEvents[unsupportedKey]).toBe(unsupportedEvent)
    expect(new Set(taskChartEvents.map((e) => JSON.stringify(e))).size).toBe(keyCount)
  })
})

describe("the compiled task chart", () => {
  it("reaches every lifecycle state, each with one XState snapshot, and closes the final ones", () => {
    expect([...chart.nodes.keys()].map((v) => JSON.parse(v)).sort()).toEqual(
      ["auth-required", "canceled", "completed", "failed", "input-required", "rejected", "submitted", "working"]
    )
    for (const node of chart.nodes.values()) {
      expect(node.cells).toHaveLength(node.snapshot.status === "active" ? keyCount : 0)
    }
  })

  it("answers every event as a live actor of the same chart does, over random event sequences", () => {
    const next = random(20261201)
    let steps = 0
    let refusals = 0
    let finals = 0
    for (let run = 0; run < 1500; run++) {
      const { actor, send } = liveActor()
      let node = chart.initial
      expect(persisted(node.snapshot)).toEqual(persisted(actor.getSnapshot()))
      const length = 1 + Math.floor(next() * 12)
      for (let i = 0; i < length; i++) {
        if (isDone(actor)) {
          // XState closes the actor in a final state; the table has no answers there.
          expect(node.cells).toHaveLength(0)
          finals++
          break
        }
        const key = Math.floor(next() * keyCount)
        const effects = send(taskChartEvents[key]!)
        const cell = node.cells[key]!
        expect(cell.emitted).toEqual(effects)
        expect(persisted(cell.to.snapshot)).toEqual(persisted(actor.getSnapshot()))
        if (effects[0]?.type === "refused") refusals++
        node = cell.to
        steps++
      }
      actor.stop()
    }
    // The sequences did reach refusals and final states, not just the happy path.
    expect(steps).toBeGreaterThan(5000)
    expect(refusals).toBeGreaterThan(500)
    expect(finals).toBeGreaterThan(300)
  })
})

describe("step", () => {
  const ids = { id: "task-1", contextId: "ctx-1" } as const
  const T = "2026-01-01T00:00:00.000Z"
  // Chunks come more often than the events that end a task, so that artifacts get closed and chunked again.
  const types = [
    "status", "artifact", "artifact", "artifact", "artifact", "requestInput", "requestAuth", "resume", "agentMessage",
    "agentMessage", "complete", "fail", "reject", "cancel", "explode"
  ] as const

  const messageOf = (next: Random): Message => {
    const m: { -readonly [K in keyof Message]: Message[K] } = {
      kind: "message", role: pick(next, ["user", "agent"] as const), messageId: String(next()), parts: [{ kind: "text", text: "x" }]
    }
    const taskId = pick(next, [undefined, undefined, ids.id, "task-2"])
    const contextId = pick(next, [undefined, undefined, ids.contextId, "ctx-2"])
    if (taskId !== undefined) m.taskId = taskId
    if (contextId !== undefined) m.contextId = contextId
    return m
  }

  const eventOf = (next: Random): TaskEvent => {
    const type = pick(next, types)
    switch (type) {
      case "artifact": {
        const lastChunk = pick(next, [undefined, false, true, false])
        const artifact = { artifactId: pick(next, ["a", "b"]), parts: [{ kind: "text", text: "x" }] } as const
        return lastChunk === undefined ? { type, artifact } : { type, artifact, lastChunk }
      }
      case "resume": return { type, timestamp: T, message: messageOf(next) }
      case "agentMessage": return { type, message: messageOf(next) }
      case "explode": return { type, timestamp: T } as unknown as TaskEvent
      default: {
        const message = pick(next, [undefined, messageOf(next)])
        return message === undefined || message.role !== "agent" ? { type, timestamp: T } : { type, timestamp: T, message }
      }
    }
  }

  /** The chart's view of `event`, from bookkeeping of the test's own. */
  const factsOf = (event: TaskEvent, closed: ReadonlySet<string>): TaskChartEvent | typeof unsupportedEvent => {
    switch (event.type) {
      case "artifact": return { type: "artifact", closed: closed.has(event.artifact.artifactId), last: event.lastChunk === true }
      case "resume":
      case "agentMessage": {
        const { contextId, role, taskId } = event.message
        const foreign = (taskId !== undefined && taskId !== ids.id) || (contextId !== undefined && contextId !== ids.contextId)
        return { type: event.type, role, foreign }
      }
      case "status": case "requestInput": case "requestAuth": case "complete": case "fail": case "reject": case "cancel":
        return { type: event.type }
      default: return unsupportedEvent
    }
  }

  /** What a stream event says, to compare with the effect that made it. */
  const said = (e: TaskStreamEvent) =>
    e.kind === "status-update" ? `status ${e.status.state}` : e.kind === "artifact-update" ? `artifact ${e.lastChunk === true}` : "message"
  const expected = (effects: ReadonlyArray<TaskEffect>) =>
    effects.flatMap((e) =>
      e.type === "status" ? [`status ${e.state}`] : e.type === "artifact" ? [`artifact ${e.close}`] : e.type === "message" && e.streamed ? ["message"] : []
    )

  it("answers random task events as a live actor of the chart does, given the same facts", () => {
    const next = random(7)
    const seen = new Set<string>()
    for (let run = 0; run < 600; run++) {
      const { actor, send } = liveActor()
      const closed = new Set<string>()
      let s: TaskSnapshot = start({ ...ids, timestamp: T, message: { kind: "message", role: "user", messageId: "m", parts: [] } })
      const length = 1 + Math.floor(next() * 16)
      for (let i = 0; i < length; i++) {
        const event = eventOf(next)
        const result = step(s, event)
        if (isDone(actor)) {
          expect(result).toMatchObject({ accepted: false, refusal: { reason: "terminal", from: s.state } })
          seen.add("terminal")
          break
        }
        const facts = factsOf(event, closed)
        const effects = send(facts)
        const first = effects[0]
        if (first?.type === "refused") {
          expect(result).toMatchObject({ accepted: false, refusal: { reason: first.reason, from: s.state, event: event.type } })
          seen.add(first.reason)
          continue
        }
        if (!result.accepted) throw new Error(`refused what the actor accepted: ${result.refusal.message}`)
        expect(result.snapshot.state).toBe(actor.getSnapshot().value)
        expect(persisted(result.snapshot.lifecycle)).toEqual(persisted(actor.getSnapshot()))
        expect(result.emitted.map(said)).toEqual(expected(effects))
        for (const e of effects) if (e.type === "artifact" && e.close && event.type === "artifact") closed.add(event.artifact.artifactId)
        seen.add(`accepted ${event.type}`)
        s = result.snapshot
      }
      actor.stop()
    }
    // Every refusal and every kind of accepted event came up.
    expect([...seen].sort()).toEqual([
      "accepted agentMessage", "accepted artifact", "accepted cancel", "accepted complete", "accepted fail", "accepted reject",
      "accepted requestAuth", "accepted requestInput", "accepted resume", "accepted status",
      "artifact-closed", "foreign-message", "interrupted", "not-agent-message", "not-user-message", "terminal", "unsupported"
    ])
  })
})
