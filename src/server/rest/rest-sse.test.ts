import { Effect, Stream } from "effect"
import { describe, expect, it } from "vitest"
import { TaskNotFound } from "../../../schemas/error-catalogue.ts"
import type { Task, TaskStatusUpdateEvent } from "../../../schemas/index.ts"
import type { SequencedEvent } from "../../runtime/task-runtime.ts"
import { restSseBody } from "./rest-sse.ts"

const task: Task = { kind: "task", id: "t", contextId: "c", status: { state: "working" } }
const final: TaskStatusUpdateEvent = { kind: "status-update", taskId: "t", contextId: "c", final: true, status: { state: "completed" } }

const text = (events: Stream.Stream<SequencedEvent, any>) =>
  Effect.runPromise(
    Stream.runCollect(restSseBody(events, { heartbeatMs: 0 })).pipe(
      Effect.map((chunks) => chunks.map((b) => new TextDecoder().decode(b)).join(""))
    )
  )

describe("restSseBody", () => {
  it("writes `id:` and one `data:` line with the bare REST payload per event; a burst leaves as one buffer", async () => {
    const body = restSseBody(Stream.fromIterable<SequencedEvent>([{ seq: 1, event: task }, { seq: 2, event: final }]), { heartbeatMs: 0 })
    const chunks = await Effect.runPromise(Stream.runCollect(body))
    expect(chunks).toHaveLength(1)
    expect(new TextDecoder().decode(chunks[0])).toBe(
      'id: 1\ndata: {"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}\n\n' +
        'id: 2\ndata: {"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"},"final":true}}\n\n'
    )
  })

  it("ends a failing stream with an `event: error` frame carrying `{ code, message }`", async () => {
    const events = Stream.concat(
      Stream.make<Array<SequencedEvent>>({ seq: 1, event: task }),
      Stream.fail(new TaskNotFound({ message: "Task t vanished" }))
    )
    expect(await text(events)).toMatch(/\n\nevent: error\ndata: \{"code":-32001,"message":"Task t vanished"\}\n\n$/)
  })

  it("turns a defect into a generic internal error, never its cause", async () => {
    const events = Stream.concat(Stream.make<Array<SequencedEvent>>({ seq: 1, event: task }), Stream.die(new Error("db password=hunter2")))
    const out = await text(events)
    expect(out).toContain('event: error\ndata: {"code":-32603,')
    expect(out).not.toContain("hunter2")
  })
})
