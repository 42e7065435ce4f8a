import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Option, Stream } from "effect"
import { fromPromise } from "xstate"
import { approvalMachine, reviewEventFromText } from "../../machines/approval.ts"
import { pipelineMachine, pipelineStep } from "../../machines/pipeline.ts"
import type { Message, Task } from "../../schemas/index.ts"
import { messageText } from "../agent/messages.ts"
import { makeMemoryTaskStore } from "../runtime/memory-task-store.ts"
import { TaskRuntime } from "../runtime/task-runtime.ts"
import type { SequencedEvent } from "../runtime/task-runtime.ts"
import { as, testCard, userMessage } from "../../testing/runtime/fixtures.ts"
import { Workflow, workflowMetadataKey } from "./index.ts"
import { approvalAgent, approvalExtension } from "../../testing/workflow/fixtures.ts"

const alice = as("alice")
const asTask = (r: Task | Message): Task => {
  if (r.kind !== "task") throw new Error(`expected a task, got ${r.kind}`)
  return r
}
const statusText = (t: Task) => (t.status.message === undefined ? "" : messageText(t.status.message))
const artifactText = (t: Task, id: string) => {
  const parts = t.artifacts?.find((a) => a.artifactId === id)?.parts ?? []
  return parts.map((p) => (p.kind === "text" ? p.text : "")).join("")
}

describe("Workflow.toAgent: approval", () => {
  it("declares its extensions on the card", () => {
    expect(approvalAgent().card.capabilities.extensions).toEqual([approvalExtension.declaration])
    const taskId = { type: "string" }
    expect(approvalExtension.declaration.params).toEqual({
      methods: ["approval/approve", "approval/reject", "approval/revise"],
      // Each method's params as JSON Schema: taskId, plus what a Workflow.method's Schema checks.
      methodParams: {
        "approval/approve": { type: "object", properties: { taskId }, required: ["taskId"] },
        "approval/reject": {
          type: "object",
          properties: { taskId, reason: { type: "string", minLength: 1 } },
          required: ["taskId", "reason"],
          additionalProperties: true
        },
        "approval/revise": {
          type: "object",
          properties: { taskId, comment: { type: "string", minLength: 1 } },
          required: ["taskId", "comment"],
          additionalProperties: true
        }
      }
    })
  })

  it.effect("request -> input-required with the draft -> approve -> completed with the document", () =>
    Effect.gen(function*() {
      const runtime = yield* TaskRuntime.make(approvalAgent())
      const asked = asTask(yield* runtime.send({ message: userMessage("a launch note") }, alice))
      expect(asked.status.state).toBe("input-required")
      expect(statusText(asked)).toContain("Proposal: a launch note")
      // The machine's snapshot stays on the server: the client sees the state's name only.
      expect(asked.status.message?.metadata?.[workflowMetadataKey]).toEqual({ state: "review" })
      const done = asTask(yield* runtime.send({ message: userMessage("approve", { taskId: asked.id }) }, alice))
      expect(done.status.state).toBe("completed")
      expect(statusText(done)).toBe("Approved")
      expect(artifactText(done, "document")).toBe("Proposal: a launch note")
    }))

  it.effect("keeps the machine's snapshot with the task in the store, never in what the client gets, unless asked to send it", () =>
    Effect.gen(function*() {
      const store = yield* makeMemoryTaskStore()
      const runtime = yield* TaskRuntime.make(approvalAgent(), { store })
      const asked = asTask(yield* runtime.send({ message: userMessage("a secret draft") }, alice))
      const record = Option.getOrThrow(yield* store.get(asked.id))
      expect(record.saved).toMatchObject({ value: "review", context: { draft: "Proposal: a secret draft" } })
      expect(JSON.stringify(record.task)).not.toContain("\"context\"")
      // A second runtime on the same store continues the machine from what is stored.
      const other = yield* TaskRuntime.make(approvalAgent(), { store })
      const done = asTask(yield* other.send({ message: userMessage("approve", { taskId: asked.id }) }, alice))
      expect(artifactText(done, "document")).toBe("Proposal: a secret draft")
      // Ended: nothing saved any more.
      expect(Option.getOrThrow(yield* store.get(asked.id)).saved).toBeUndefined()

      const sending = yield* TaskRuntime.make(approvalAgent(2, { sendSnapshot: true }))
      const shown = asTask(yield* sending.send({ message: userMessage("a public draft") }, alice))
      expect(shown.status.message?.metadata?.[workflowMetadataKey]).toMatchObject({ state: "review", snapshot: { value: "review" } })
    }))

  it.effect("a workflow that keeps no snapshot fails, saying why, when its waiting run was lost", () =>
    Effect.gen(function*() {
      const store = yield* makeMemoryTaskStore()
      const first = yield* TaskRuntime.make(approvalAgent(2, { persist: false }), { store })
      const asked = asTask(yield* first.send({ message: userMessage("a note") }, alice))
      expect(Option.getOrThrow(yield* store.get(asked.id)).saved).toBeUndefined()
      const second = yield* TaskRuntime.make(approvalAgent(2, { persist: false }), { store })
      const done = asTask(yield* second.send({ message: userMessage("approve", { taskId: asked.id }) }, alice))
      expect(done.status.state).toBe("failed")
      expect(statusText(done)).toMatch(/persist: false/)
    }))

  it.effect("reject -> rejected with the reason", () =>
    Effect.gen(function*() {
      const runtime = yield* TaskRuntime.make(approvalAgent())
      const asked = asTask(yield* runtime.send({ message: userMessage("a note") }, alice))
      const done = asTask(yield* runtime.send({ message: userMessage("reject: off topic", { taskId: asked.id }) }, alice))
      expect(done.status.state).toBe("rejected")
      expect(statusText(done)).toBe("Rejected: off topic")
      expect(done.artifacts).toBeUndefined()
    }))

  it.effect("revise -> a new draft for review, built from the comment; the revision bound rejects", () =>
    Effect.gen(function*() {
      const runtime = yield* TaskRuntime.make(approvalAgent(1))
      const asked = asTask(yield* runtime.send({ message: userMessage("a note") }, alice))
      const second = asTask(yield* runtime.send({ message: userMessage("revise add dates", { taskId: asked.id }) }, alice))
      expect(second.status.state).toBe("input-required")
      expect(statusText(second)).toContain("Draft 2 for review")
      expect(statusText(second)).toContain("Revision 1: add dates")
      const over = asTask(yield* runtime.send({ message: userMessage("revise more", { taskId: asked.id }) }, alice))
      expect(over.status.state).toBe("rejected")
      expect(statusText(over)).toBe("Rejected: revision limit of 1 reached")
    }))

  it.effect("a reply it cannot read asks again, saying why", () =>
    Effect.gen(function*() {
      const runtime = yield* TaskRuntime.make(approvalAgent())
      const asked = asTask(yield* runtime.send({ message: userMessage("a note") }, alice))
      const again = asTask(yield* runtime.send({ message: userMessage("hmm", { taskId: asked.id }) }, alice))
      expect(again.status.state).toBe("input-required")
      expect(statusText(again)).toMatch(/^The reply was not understood\.\n\nDraft 1 for review/)
    }))

  it.effect("a drafter that throws fails the task with its message", () =>
    Effect.gen(function*() {
      const agent = Workflow.toAgent({
        card: testCard(),
        machine: approvalMachine.provide({ actors: { drafter: fromPromise<string, any>(() => Promise.reject(new Error("model down"))) } }),
        input: (m) => ({ request: messageText(m) }),
        toEvent: (reply) => reviewEventFromText(messageText(reply))
      })
      const runtime = yield* TaskRuntime.make(agent)
      const done = asTask(yield* runtime.send({ message: userMessage("x") }, alice))
      expect(done.status.state).toBe("failed")
      expect(statusText(done)).toBe("Drafting failed: model down")
    }))
})

const label = ({ event }: SequencedEvent): string => {
  switch (event.kind) {
    case "status-update": {
      const text = event.status.message === undefined ? "" : `(${messageText(event.status.message)})`
      return `${event.status.state}${text}`
    }
    case "artifact-update":
      return `artifact:${event.artifact.artifactId}:${messageText({ ...userMessage(""), parts: event.artifact.parts })}${event.lastChunk ? ":last" : ""}`
    default:
      return event.kind
  }
}

const pipelineAgent = (steps: Parameters<typeof pipelineMachine.provide>[0]["actors"]) =>
  Workflow.toAgent({
    card: testCard(),
    machine: pipelineMachine.provide({ actors: steps! }),
    input: (m) => ({ source: messageText(m) }),
    toEvent: () => undefined
  })

describe("Workflow.toAgent: pipeline", () => {
  it.effect("streams one artifact per step, in order and in chunks, then completes", () =>
    Effect.gen(function*() {
      const runtime = yield* TaskRuntime.make(pipelineAgent({
        fetch: pipelineStep(async (url, { chunk }) => {
          chunk(`<${url}>`)
          chunk("<body>")
          return `<${url}><body>`
        }),
        transform: pipelineStep(async (html) => html.toUpperCase()),
        summarise: pipelineStep(async (text) => `${text.length} chars`)
      }))
      const events = yield* Stream.runCollect(yield* runtime.stream({ message: userMessage("doc") }, alice))
      expect(events.map(label)).toEqual([
        "task",
        "working(Fetching)",
        "artifact:fetch:<doc>",
        "artifact:fetch:<body>:last",
        "working(Transforming)",
        "artifact:transform:<DOC><BODY>:last",
        "working(Summarising)",
        "artifact:summarise:11 chars:last",
        "completed(11 chars)"
      ])
      const task = yield* runtime.get({ id: (events[0]!.event as Task).id }, alice)
      expect(task.artifacts?.map((a) => a.artifactId)).toEqual(["fetch", "transform", "summarise"])
      expect(artifactText(task, "fetch")).toBe("<doc><body>")
    }))

  it.effect("a failing step fails the task, naming the step", () =>
    Effect.gen(function*() {
      const runtime = yield* TaskRuntime.make(pipelineAgent({
        fetch: pipelineStep(async () => "page"),
        transform: pipelineStep(async () => {
          throw new Error("bad markup")
        }),
        summarise: pipelineStep(async () => "never")
      }))
      const events = yield* Stream.runCollect(yield* runtime.stream({ message: userMessage("doc") }, alice))
      expect(events.map(label).slice(-2)).toEqual(["working(Transforming)", "failed(Step transform failed: bad markup)"])
      expect(events.map(label)).not.toContain("working(Summarising)")
    }))

  it.effect("cancel mid-pipeline: canceled, and the running step's actor is stopped", () =>
    Effect.gen(function*() {
      const started = yield* Deferred.make<AbortSignal>()
      const runtime = yield* TaskRuntime.make(pipelineAgent({
        fetch: pipelineStep(async () => "page"),
        transform: pipelineStep((_, { signal }) => {
          Deferred.doneUnsafe(started, Effect.succeed(signal))
          return new Promise<string>(() => {})
        }),
        summarise: pipelineStep(async () => "never")
      }))
      const task = asTask(yield* runtime.send({ message: userMessage("doc"), configuration: { blocking: false } }, alice))
      const signal = yield* Deferred.await(started)
      expect(signal.aborted).toBe(false)
      const canceled = yield* runtime.cancel({ id: task.id }, alice)
      expect(canceled.status.state).toBe("canceled")
      expect(signal.aborted).toBe(true)
      const stored = yield* runtime.get({ id: task.id }, alice)
      expect(stored.status.state).toBe("canceled")
      expect(stored.artifacts?.map((a) => a.artifactId)).toEqual(["fetch"])
    }))
})
