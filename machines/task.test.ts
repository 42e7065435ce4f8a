import { describe, expect, it } from "vitest"
import { initialTransition, transition } from "xstate"
import type { Artifact, Message, TaskStatusUpdateEvent } from "../schemas/index.ts"
import {
  isInterrupted,
  isTerminal,
  restore,
  start,
  step,
  taskMachine,
  taskOf,
  type LifecycleState,
  type RefusalReason,
  type StepResult,
  type TaskEvent,
  type TaskSnapshot
} from "./task.ts"

const T0 = "2025-01-01T00:00:00.000Z"
const T1 = "2025-01-01T00:00:01.000Z"

const message = (role: "user" | "agent", messageId: string, extra: Partial<Message> = {}): Message => ({
  kind: "message", role, messageId, parts: [{ kind: "text", text: messageId }], ...extra
})
const chunk = (artifactId: string, text: string): Artifact => ({ artifactId, parts: [{ kind: "text", text }] })

const submitted = () => start({ id: "task-1", contextId: "ctx-1", timestamp: T0, message: message("user", "m-0") })

const accepted = (result: StepResult) => {
  if (!result.accepted) throw new Error(`refused: ${result.refusal.message}`)
  return result
}

/** Drives a fresh task into `state` through accepted events. */
const reach = (state: LifecycleState): TaskSnapshot => {
  const s = submitted()
  const via: Record<LifecycleState, TaskEvent | undefined> = {
    submitted: undefined,
    working: { type: "status", timestamp: T0 },
    "input-required": { type: "requestInput", timestamp: T0, message: message("agent", "ask") },
    "auth-required": { type: "requestAuth", timestamp: T0 },
    completed: { type: "complete", timestamp: T0 },
    canceled: { type: "cancel", timestamp: T0 },
    failed: { type: "fail", timestamp: T0 },
    rejected: { type: "reject", timestamp: T0 }
  }
  const event = via[state]
  return event === undefined ? s : accepted(step(s, event)).snapshot
}

const events: Record<TaskEvent["type"], TaskEvent> = {
  status: { type: "status", timestamp: T1, message: message("agent", "progress") },
  artifact: { type: "artifact", artifact: chunk("a-1", "x"), append: true },
  requestInput: { type: "requestInput", timestamp: T1, message: message("agent", "which?") },
  requestAuth: { type: "requestAuth", timestamp: T1 },
  resume: { type: "resume", timestamp: T1, message: message("user", "answer") },
  agentMessage: { type: "agentMessage", message: message("agent", "note") },
  complete: { type: "complete", timestamp: T1 },
  fail: { type: "fail", timestamp: T1 },
  reject: { type: "reject", timestamp: T1 },
  cancel: { type: "cancel", timestamp: T1 }
}

const live: ReadonlyArray<LifecycleState> = ["submitted", "working", "input-required", "auth-required"]
const terminal: ReadonlyArray<LifecycleState> = ["completed", "canceled", "failed", "rejected"]

type Expected = LifecycleState | "stay" | RefusalReason
/** The lifecycle table: the state an event leads to from each live state, "stay", or the refusal reason. */
const table: Record<TaskEvent["type"], Record<"submitted" | "working" | "input-required" | "auth-required", Expected>> = {
  status: { submitted: "working", working: "working", "input-required": "working", "auth-required": "working" },
  artifact: { submitted: "stay", working: "stay", "input-required": "interrupted", "auth-required": "interrupted" },
  requestInput: {
    submitted: "input-required", working: "input-required", "input-required": "interrupted", "auth-required": "interrupted"
  },
  requestAuth: {
    submitted: "auth-required", working: "auth-required", "input-required": "interrupted", "auth-required": "interrupted"
  },
  resume: { submitted: "stay", working: "stay", "input-required": "working", "auth-required": "working" },
  agentMessage: { submitted: "stay", working: "stay", "input-required": "interrupted", "auth-required": "interrupted" },
  complete: { submitted: "completed", working: "completed", "input-required": "interrupted", "auth-required": "interrupted" },
  fail: { submitted: "failed", working: "failed", "input-required": "failed", "auth-required": "failed" },
  reject: { submitted: "rejected", working: "rejected", "input-required": "interrupted", "auth-required": "interrupted" },
  cancel: { submitted: "canceled", working: "canceled", "input-required": "canceled", "auth-required": "canceled" }
}
const refusals: ReadonlyArray<Expected> = ["interrupted", "terminal"]

const origins = [
  ["stepped", reach],
  ["restored", (state: LifecycleState) => restore(taskOf(reach(state)))!]
] as const

describe.each(origins)("lifecycle table (%s snapshots)", (_, make) => {
  for (const from of live) {
    for (const [type, event] of Object.entries(events) as Array<[TaskEvent["type"], TaskEvent]>) {
      const expected = table[type][from as keyof typeof table[typeof type]]
      it(`${from} + ${type} -> ${expected}`, () => {
        const before = make(from)
        const result = step(before, event)
        if (refusals.includes(expected)) {
          expect(result).toEqual({
            accepted: false,
            refusal: { _tag: "TransitionRefused", from, event: type, reason: expected, message: expect.any(String) }
          })
          return
        }
        const { snapshot, emitted } = accepted(result)
        const to = expected === "stay" ? from : expected as LifecycleState
        expect(snapshot.state).toBe(to)
        expect(snapshot.lifecycle.value).toBe(to)
        expect(snapshot.lifecycle.status).toBe(isTerminal(to) ? "done" : "active")
        expect(taskOf(snapshot).status.state).toBe(to)
        const statusChanged = expected !== "stay"
        if (statusChanged) {
          expect(emitted).toHaveLength(1)
          const update = emitted[0] as TaskStatusUpdateEvent
          expect(update).toMatchObject({ kind: "status-update", taskId: "task-1", contextId: "ctx-1", final: isTerminal(to) || isInterrupted(to) })
          expect(update.status).toEqual(taskOf(snapshot).status)
          expect(update.status.timestamp).toBe(T1)
        } else if (type === "artifact") {
          expect(emitted).toEqual([{ kind: "artifact-update", taskId: "task-1", contextId: "ctx-1", artifact: chunk("a-1", "x"), append: true }])
        } else if (type === "agentMessage") {
          expect(emitted).toEqual([{ ...message("agent", "note"), taskId: "task-1", contextId: "ctx-1" }])
        } else {
          expect(emitted).toEqual([])
        }
        // Pure: the snapshot we stepped from still reads as before.
        expect(before.state).toBe(from)
        expect(taskOf(before)).toEqual(taskOf(make(from)))
      })
    }
  }
  for (const from of terminal) {
    it.each(Object.values(events))(`${from} refuses %o`, (event) => {
      expect(step(make(from), event)).toMatchObject({
        accepted: false,
        refusal: { _tag: "TransitionRefused", from, event: event.type, reason: "terminal" }
      })
    })
  }
})

/** The XState snapshot a task stepped from `start` along `events` ends with. */
const lifecycleAfter = (...events: ReadonlyArray<TaskEvent>) =>
  events.reduce((s, event) => accepted(step(s, event)).snapshot, submitted()).lifecycle

describe("the task's XState snapshot", () => {
  it("starts as XState's initial snapshot of the chart", () => {
    const [initial] = initialTransition(taskMachine)
    const { lifecycle } = submitted()
    expect(lifecycle.value).toBe("submitted")
    expect(lifecycle.status).toBe("active")
    expect(taskMachine.getPersistedSnapshot(lifecycle)).toEqual(taskMachine.getPersistedSnapshot(initial))
  })

  it("is XState's own answer: what transition() gives for the event's facts", () => {
    const working = reach("working")
    const [next] = transition(taskMachine, working.lifecycle, { type: "requestInput" })
    const asked = accepted(step(working, events.requestInput)).snapshot
    expect(taskMachine.getPersistedSnapshot(asked.lifecycle)).toEqual(taskMachine.getPersistedSnapshot(next))
  })

  it("is one snapshot per state, shared by every task in that state however it got there", () => {
    const other = start({ id: "task-2", contextId: "ctx-2", timestamp: T1, message: message("user", "other") })
    const viaStatus = lifecycleAfter(events.status)
    expect(accepted(step(other, events.status)).snapshot.lifecycle).toBe(viaStatus)
    expect(lifecycleAfter(events.requestInput, events.resume)).toBe(viaStatus)
    expect(restore(taskOf(reach("working")))!.lifecycle).toBe(viaStatus)
    expect(other.lifecycle).toBe(submitted().lifecycle)
  })

  it("holds nothing of the task, however much the task streams", () => {
    let s = reach("working")
    const before = JSON.stringify(taskMachine.getPersistedSnapshot(s.lifecycle))
    for (let i = 0; i < 200; i++) {
      s = accepted(step(s, { type: "artifact", artifact: chunk("a", String(i)), append: true })).snapshot
      s = accepted(step(s, { type: "agentMessage", message: message("agent", `note ${i}`) })).snapshot
    }
    expect(s.lifecycle.context).toEqual({})
    expect(JSON.stringify(taskMachine.getPersistedSnapshot(s.lifecycle))).toBe(before)
    expect(before).not.toMatch(/task-1|ctx-1/)
    expect(taskOf(s).history).toHaveLength(201)
  })

  it("continues an older snapshot stepped again from its own state, leaving the newer line alone", () => {
    const base = reach("working")
    const ended = accepted(step(base, events.complete)).snapshot
    const asked = accepted(step(base, events.requestInput)).snapshot
    expect(asked.state).toBe("input-required")
    expect(ended.lifecycle.value).toBe("completed")
    expect(ended.lifecycle.status).toBe("done")
    expect(step(ended, events.status)).toMatchObject({ accepted: false, refusal: { reason: "terminal" } })
    expect(accepted(step(asked, events.resume)).snapshot.state).toBe("working")
  })

  it("turns a malformed event into an exception from step, never an answer", () => {
    const noArtifact = { type: "artifact" } as unknown as TaskEvent
    expect(() => step(reach("working"), noArtifact)).toThrow(TypeError)
    const noRole = { type: "resume", timestamp: T1, message: { ...message("user", "x"), role: "system" } } as unknown as TaskEvent
    expect(() => step(reach("input-required"), noRole)).toThrow(/role/)
  })

  it("remembers closed artifacts on a branch taken before and after the close", () => {
    const open = reach("working")
    const closed = accepted(step(open, { type: "artifact", artifact: chunk("a", "1"), lastChunk: true })).snapshot
    expect(step(open, { type: "artifact", artifact: chunk("a", "2") }).accepted).toBe(true)
    expect(step(closed, { type: "artifact", artifact: chunk("a", "3") })).toMatchObject({ accepted: false, refusal: { reason: "artifact-closed" } })
  })
})

describe("new task", () => {
  it("starts submitted with the first user message (carrying the task ids) and the host's timestamp", () => {
    const task = taskOf(submitted())
    expect(task).toEqual({
      kind: "task",
      id: "task-1",
      contextId: "ctx-1",
      status: { state: "submitted", timestamp: T0 },
      history: [{ ...message("user", "m-0"), taskId: "task-1", contextId: "ctx-1" }]
    })
  })

  it("keeps task metadata", () => {
    const s = start({ id: "t", contextId: "c", timestamp: T0, message: message("user", "m"), metadata: { k: 1 } })
    expect(taskOf(s).metadata).toEqual({ k: 1 })
  })
})

describe("history", () => {
  it("grows with each resume, status message and agent message, in order", () => {
    let s = reach("working")
    s = accepted(step(s, { type: "resume", timestamp: T1, message: message("user", "more") })).snapshot
    s = accepted(step(s, { type: "requestInput", timestamp: T1, message: message("agent", "which?") })).snapshot
    s = accepted(step(s, { type: "resume", timestamp: T1, message: message("user", "this one") })).snapshot
    s = accepted(step(s, { type: "agentMessage", message: message("agent", "ok") })).snapshot
    s = accepted(step(s, { type: "complete", timestamp: T1, message: message("agent", "done") })).snapshot
    expect(taskOf(s).history?.map((m) => m.messageId)).toEqual(["m-0", "more", "which?", "this one", "ok", "done"])
    expect(taskOf(s).history?.every((m) => m.taskId === "task-1" && m.contextId === "ctx-1")).toBe(true)
    expect(taskOf(s).status.message?.messageId).toBe("done")
  })

  it("keeps an earlier snapshot's history when a later one branches from it", () => {
    const base = reach("working")
    const a = accepted(step(base, events.resume)).snapshot
    const b = accepted(step(base, { type: "resume", timestamp: T1, message: message("user", "other") })).snapshot
    expect(taskOf(a).history?.map((m) => m.messageId)).toEqual(["m-0", "answer"])
    expect(taskOf(b).history?.map((m) => m.messageId)).toEqual(["m-0", "other"])
    expect(taskOf(base).history?.map((m) => m.messageId)).toEqual(["m-0"])
  })

  it.each([
    ["resume with an agent message", "working", { type: "resume", timestamp: T1, message: message("agent", "x") }, "not-user-message"],
    ["agentMessage with a user message", "working", { type: "agentMessage", message: message("user", "x") }, "not-agent-message"],
    ["a message of another task", "input-required", { type: "resume", timestamp: T1, message: message("user", "x", { taskId: "task-2" }) }, "foreign-message"],
    ["a message of another context", "working", { type: "agentMessage", message: message("agent", "x", { contextId: "ctx-2" }) }, "foreign-message"]
  ] as const)("refuses %s", (_, from, event, reason) => {
    expect(step(reach(from), event)).toMatchObject({ accepted: false, refusal: { reason, from } })
  })

  it("accepts a message that names this task and context", () => {
    const event: TaskEvent = { type: "resume", timestamp: T1, message: message("user", "x", { taskId: "task-1", contextId: "ctx-1" }) }
    expect(step(reach("input-required"), event).accepted).toBe(true)
  })
})

describe("status", () => {
  it("takes its timestamp from each event, never from a clock", () => {
    const times = ["2030-05-05T05:05:05.000Z", "1999-12-31T23:59:59.000Z", "2001-01-01T00:00:00.000Z"]
    let s = submitted()
    for (const [i, timestamp] of times.entries()) {
      const r = accepted(step(s, i < 2 ? { type: "status", timestamp } : { type: "fail", timestamp }))
      s = r.snapshot
      expect((r.emitted[0] as TaskStatusUpdateEvent).status.timestamp).toBe(timestamp)
      expect(taskOf(s).status.timestamp).toBe(timestamp)
    }
  })

  it("copies event metadata onto the status-update", () => {
    const r = accepted(step(reach("working"), { type: "status", timestamp: T1, metadata: { progress: 0.5 } }))
    expect(r.emitted[0]).toMatchObject({ metadata: { progress: 0.5 }, final: false })
  })

  it("marks final exactly the terminal and interrupted updates", () => {
    const finals = Object.fromEntries(
      (["status", "requestInput", "requestAuth", "complete", "fail", "reject", "cancel"] as const).map((type) => {
        const r = accepted(step(reach("working"), events[type]))
        return [type, (r.emitted[0] as TaskStatusUpdateEvent).final]
      })
    )
    expect(finals).toEqual({
      status: false, requestInput: true, requestAuth: true, complete: true, fail: true, reject: true, cancel: true
    })
  })
})

describe("artifacts through the machine", () => {
  const put = (s: TaskSnapshot, artifact: Artifact, options: { append?: boolean; lastChunk?: boolean } = {}) =>
    step(s, { type: "artifact", artifact, ...options })

  it("merges appended chunks and replacements into the Task", () => {
    let s = reach("working")
    s = accepted(put(s, chunk("a", "1"))).snapshot
    s = accepted(put(s, chunk("a", "2"), { append: true })).snapshot
    s = accepted(put(s, chunk("b", "x"), { append: true })).snapshot
    s = accepted(put(s, chunk("b", "y"))).snapshot
    expect(taskOf(s).artifacts).toEqual([
      { artifactId: "a", parts: [{ kind: "text", text: "1" }, { kind: "text", text: "2" }] },
      { artifactId: "b", parts: [{ kind: "text", text: "y" }] }
    ])
  })

  it("refuses any chunk for an artifact after its lastChunk, and leaves others open", () => {
    let s = reach("working")
    s = accepted(put(s, chunk("a", "1"), { lastChunk: true })).snapshot
    expect(put(s, chunk("a", "2"), { append: true })).toMatchObject({ accepted: false, refusal: { reason: "artifact-closed" } })
    expect(put(s, chunk("a", "3"))).toMatchObject({ accepted: false, refusal: { reason: "artifact-closed" } })
    expect(put(s, chunk("b", "1")).accepted).toBe(true)
  })

  it("appends in place: a chunk does not copy the earlier chunks", () => {
    const s = accepted(put(reach("working"), chunk("a", "1"))).snapshot
    const next = accepted(put(s, chunk("a", "2"), { append: true })).snapshot
    expect(next.data.artifacts.chunks.items).toBe(s.data.artifacts.chunks.items)
    expect(next.data.history).toBe(s.data.history)
    expect(taskOf(s).artifacts?.[0]?.parts).toHaveLength(1)
  })
})

describe("restore", () => {
  it("round-trips a stored task and continues it", () => {
    const s = accepted(step(reach("working"), events.artifact)).snapshot
    const again = restore(taskOf(s))!
    expect(again.state).toBe("working")
    expect(taskOf(again)).toEqual(taskOf(s))
    expect(step(again, events.complete).accepted).toBe(true)
  })

  it.each([...live, ...terminal])("brings the task back to %s, in the snapshot XState gave that state", (state) => {
    const stored = taskOf(reach(state))
    const again = restore(stored)!
    expect(again.state).toBe(state)
    expect(again.lifecycle).toBe(reach(state).lifecycle)
    expect(again.lifecycle.value).toBe(state)
    expect(again.lifecycle.status).toBe(isTerminal(state) ? "done" : "active")
    expect(taskOf(again)).toEqual(stored)
  })

  it("gives nothing for the wire-only state unknown", () => {
    expect(restore({ kind: "task", id: "t", contextId: "c", status: { state: "unknown" } })).toBeUndefined()
  })
})

describe("state predicates", () => {
  it("classify every state", () => {
    expect([...live, ...terminal, "unknown" as const].map((s) => [s, isTerminal(s), isInterrupted(s)])).toEqual([
      ["submitted", false, false],
      ["working", false, false],
      ["input-required", false, true],
      ["auth-required", false, true],
      ["completed", true, false],
      ["canceled", true, false],
      ["failed", true, false],
      ["rejected", true, false],
      ["unknown", false, false]
    ])
  })
})

describe("events the machine does not know", () => {
  it("are refused as unsupported", () => {
    const bogus = { type: "explode", timestamp: T1 } as unknown as TaskEvent
    expect(step(reach("working"), bogus)).toMatchObject({ accepted: false, refusal: { reason: "unsupported", event: "explode" } })
  })
})
