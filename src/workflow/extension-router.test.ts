import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { assign, setup as machineSetup } from "xstate"
import type { Message, Task } from "../../schemas/index.ts"
import { messageText } from "../agent/messages.ts"
import { makeMemoryTaskStore } from "../runtime/memory-task-store.ts"
import { TaskRuntime } from "../runtime/task-runtime.ts"
import { as, testCard, userMessage } from "../../testing/runtime/fixtures.ts"
import { Workflow } from "./index.ts"
import { approvalAgent, approvalExtension } from "../../testing/workflow/fixtures.ts"

const alice = as("alice")
const asTask = (r: unknown): Task => {
  if ((r as Task | Message).kind !== "task") throw new Error("expected a task")
  return r as Task
}
const statusText = (t: Task) => (t.status.message === undefined ? "" : messageText(t.status.message))

/** A runtime serving the approval agent, its router, and a task waiting for review. */
const setup = Effect.gen(function*() {
  const runtime = yield* TaskRuntime.make(approvalAgent())
  const router = Workflow.router(runtime)
  const review = (text: string) => Effect.map(runtime.send({ message: userMessage(text) }, alice), asTask)
  return { runtime, router, review }
})

describe("Workflow.router", () => {
  it.effect("lists the extension's methods", () =>
    Effect.gen(function*() {
      const { router } = yield* setup
      expect([...router.methods]).toEqual(["approval/approve", "approval/reject", "approval/revise"])
    }))

  it.effect("approval/approve reaches the named task's machine and no other", () =>
    Effect.gen(function*() {
      const { review, router, runtime } = yield* setup
      const a = yield* review("note A")
      const b = yield* review("note B")
      const result = asTask(yield* router.routeExtensionMethod("approval/approve", { taskId: b.id }, alice))
      expect(result.id).toBe(b.id)
      expect(result.status.state).toBe("completed")
      expect(result.artifacts?.[0]?.parts).toEqual([{ kind: "text", text: "Proposal: note B" }])
      expect((yield* runtime.get({ id: a.id }, alice)).status.state).toBe("input-required")
      const call = result.history?.find((m) => m.role === "user" && m.metadata?.[approvalExtension.uri] !== undefined)
      expect(call?.metadata?.[approvalExtension.uri]).toEqual({ method: "approve", params: {} })
    }))

  it.effect("approval/revise and approval/reject carry their params into the events", () =>
    Effect.gen(function*() {
      const { review, router } = yield* setup
      const t = yield* review("note")
      const revised = asTask(yield* router.routeExtensionMethod("approval/revise", { taskId: t.id, comment: "add a date" }, alice))
      expect(revised.status.state).toBe("input-required")
      expect(statusText(revised)).toContain("Revision 1: add a date")
      const rejected = asTask(yield* router.routeExtensionMethod("approval/reject", { taskId: t.id, reason: "late" }, alice))
      expect(rejected.status.state).toBe("rejected")
      expect(statusText(rejected)).toBe("Rejected: late")
    }))

  it.effect("unknown method: MethodNotFound", () =>
    Effect.gen(function*() {
      const { router } = yield* setup
      const e = yield* Effect.flip(router.routeExtensionMethod("approval/escalate", { taskId: "x" }, alice))
      expect(e._tag).toBe("MethodNotFound")
    }))

  it.effect("bad params: InvalidParams saying what is wrong", () =>
    Effect.gen(function*() {
      const { review, router } = yield* setup
      const t = yield* review("note")
      const noTask = yield* Effect.flip(router.routeExtensionMethod("approval/approve", { comment: "x" }, alice))
      expect(noTask._tag).toBe("InvalidParams")
      expect(noTask.message).toBe('Invalid params: approval/approve needs params { "taskId": string, ... }')
      const noReason = yield* Effect.flip(router.routeExtensionMethod("approval/reject", { taskId: t.id }, alice))
      expect(noReason._tag).toBe("InvalidParams")
      expect(noReason.message).toMatch(/^Invalid params: approval\/reject: at reason: /)
      const notObject = yield* Effect.flip(router.routeExtensionMethod("approval/approve", [t.id], alice))
      expect(notObject._tag).toBe("InvalidParams")
    }))

  it.effect("a task of someone else, or no task: TaskNotFound", () =>
    Effect.gen(function*() {
      const { review, router } = yield* setup
      const t = yield* review("note")
      const foreign = yield* Effect.flip(router.routeExtensionMethod("approval/approve", { taskId: t.id }, as("mallory")))
      expect(foreign._tag).toBe("TaskNotFound")
      const missing = yield* Effect.flip(router.routeExtensionMethod("approval/approve", { taskId: "nope" }, alice))
      expect(missing._tag).toBe("TaskNotFound")
    }))

  it.effect("a task not waiting for review: InvalidParams, the task unchanged", () =>
    Effect.gen(function*() {
      const { review, router, runtime } = yield* setup
      const t = yield* review("note")
      yield* router.routeExtensionMethod("approval/approve", { taskId: t.id }, alice)
      const again = yield* Effect.flip(router.routeExtensionMethod("approval/reject", { taskId: t.id, reason: "x" }, alice))
      expect(again._tag).toBe("InvalidParams")
      expect(again.message).toContain("is completed, not waiting for input")
      expect((yield* runtime.get({ id: t.id }, alice)).status.state).toBe("completed")
    }))

  it.effect("an event the saved machine state refuses (a guard on its context): InvalidParams, the task unchanged", () =>
    Effect.gen(function*() {
      // Waits for a code; `gate.open` applies only once a code was given, which the saved context says.
      const gateMachine = machineSetup({
        types: { context: {} as { code: string | undefined }, events: {} as { type: "gate.code"; code: string } | { type: "gate.open" } }
      }).createMachine({
        initial: "waiting",
        context: { code: undefined },
        states: {
          waiting: {
            meta: { a2a: "input-required", prompt: "code?" },
            on: {
              "gate.code": { actions: assign({ code: ({ event }) => event.code }) },
              "gate.open": { guard: ({ context }) => context.code !== undefined, target: "open" }
            }
          },
          open: { type: "final", meta: { a2a: "completed", message: "open" } }
        }
      })
      const gate = Workflow.extension({
        uri: "https://example.com/ext/gate/v1",
        namespace: "gate",
        machine: gateMachine,
        description: "gate/open",
        methods: { open: () => ({ type: "gate.open" }) }
      })
      const runtime = yield* TaskRuntime.make(
        Workflow.toAgent({ card: testCard(), machine: gateMachine, toEvent: () => undefined, extensions: [gate] })
      )
      const t = asTask(yield* runtime.send({ message: userMessage("start") }, alice))
      expect(t.status.state).toBe("input-required")
      const refused = yield* Effect.flip(Workflow.router(runtime).routeExtensionMethod("gate/open", { taskId: t.id }, alice))
      expect(refused._tag).toBe("InvalidParams")
      expect(refused.message).toContain("'gate.open' does not apply")
      expect((yield* runtime.get({ id: t.id }, alice)).status.state).toBe("input-required")
    }))

  it.effect("a call reaches a task whose actor lives in another runtime sharing the store", () =>
    Effect.gen(function*() {
      const store = yield* makeMemoryTaskStore()
      const first = yield* TaskRuntime.make(approvalAgent(), { store })
      const second = yield* TaskRuntime.make(approvalAgent(), { store })
      const t = asTask(yield* first.send({ message: userMessage("shared note") }, alice))
      const revised = asTask(yield* Workflow.router(second).routeExtensionMethod("approval/revise", { taskId: t.id, comment: "tighter" }, alice))
      expect(revised.status.state).toBe("input-required")
      expect(statusText(revised)).toContain("Proposal: shared note\n\nRevision 1: tighter")
      const done = asTask(yield* Workflow.router(second).routeExtensionMethod("approval/approve", { taskId: t.id }, alice))
      expect(done.status.state).toBe("completed")
      expect(done.artifacts?.[0]?.parts).toEqual([{ kind: "text", text: "Proposal: shared note\n\nRevision 1: tighter" }])
    }))
})
