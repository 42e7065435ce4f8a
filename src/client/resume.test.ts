import { Effect, Stream } from "effect"
import { describe, expect, it } from "vitest"
import type { StreamResult, Task } from "../../schemas/index.ts"
import { A2AClientTransportError } from "./errors.ts"
import type { RpcFrame } from "./json-rpc-transport.ts"
import { withResume } from "./resume.ts"

const working: Task = { kind: "task", id: "t", contextId: "c", status: { state: "working", timestamp: "2025-01-01T00:00:00.000Z" } }
const chunk: StreamResult = { kind: "artifact-update", taskId: "t", contextId: "c", artifact: { artifactId: "a", parts: [{ kind: "text", text: "one" }] } }
const dropped = new A2AClientTransportError({ reason: "Dropped", message: "cut", url: "http://127.0.0.1/" })
const frames = (...fs: Array<[string | undefined, StreamResult]>) => fs.map(([id, result]): RpcFrame<StreamResult> => ({ id, result }))

/** The first connection delivers `before` then drops; each reconnection answers the next entry of `after`. */
const resumed = (before: Array<RpcFrame<StreamResult>>, ...after: Array<Array<RpcFrame<StreamResult>>>) => {
  const asked: Array<string | undefined> = []
  const stream = withResume(
    Stream.concat(Stream.fromIterable(before), Stream.fail(dropped)),
    (_task, lastEventId) => {
      asked.push(lastEventId)
      return Stream.fromIterable(after.shift() ?? [])
    },
    { maxAttempts: 2, backoffMs: 1 },
    "http://127.0.0.1/"
  )
  return Effect.runPromise(Stream.runCollect(stream)).then((events) => ({ events, asked }))
}

describe("withResume and Task snapshots", () => {
  it("delivers a snapshot numbered 0 (a finished task whose log is gone) instead of dropping it as old", async () => {
    const done: Task = { ...working, status: { state: "completed", timestamp: "2025-01-01T00:00:01.000Z" }, artifacts: [{ artifactId: "a", parts: [{ kind: "text", text: "one two" }] }] }
    const { events, asked } = await resumed(frames(["1", working], ["2", chunk]), frames(["0", done]))
    expect(asked).toEqual(["2"])
    expect(events).toEqual([working, chunk, done])
  })

  it("drops a snapshot numbered 0 that says nothing new, and an event at or below the resume point", async () => {
    const final: StreamResult = { kind: "status-update", taskId: "t", contextId: "c", final: true, status: { state: "canceled" } }
    const { events, asked } = await resumed(
      frames(["1", working], ["2", chunk]),
      frames(["0", { ...working, artifacts: [chunk.artifact] }], ["1", working], ["3", final])
    )
    expect(events).toEqual([working, chunk, final])
    expect(asked).toEqual(["2"])
  })
})
