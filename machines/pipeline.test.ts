import { describe, expect, it } from "vitest"
import { createActor, initialTransition, transition } from "xstate"
import type { AnyMachineSnapshot } from "xstate"
import { pipelineMachine, pipelineStep } from "./pipeline.ts"
import type { PipelineEvent } from "./pipeline.ts"

const emittedOf = (actions: ReadonlyArray<{ type: string; params?: unknown }>) =>
  actions.filter((a) => a.type === "xstate.emit").map((a) => (a.params as { event: unknown }).event)
const spawnedOf = (actions: ReadonlyArray<{ type: string; params?: unknown }>) =>
  actions.filter((a) => a.type === "xstate.spawnChild").map((a) => (a.params as { src: string }).src)
const metaOf = (s: AnyMachineSnapshot) => Object.values(s.getMeta()).at(-1) as Record<string, unknown> | undefined

const run = (events: ReadonlyArray<PipelineEvent>) => {
  let [snapshot, actions] = initialTransition(pipelineMachine, { source: "src" })
  let emitted = emittedOf(actions)
  let spawned = spawnedOf(actions)
  for (const event of events) {
    ;[snapshot, actions] = transition(pipelineMachine, snapshot, event)
    emitted = [...emitted, ...emittedOf(actions)]
    spawned = [...spawned, ...spawnedOf(actions)]
  }
  return { snapshot, emitted, spawned }
}

const chunk = (artifactId: string, text: string, append: boolean, lastChunk: boolean) =>
  ({ type: "a2a.artifact", artifactId, name: artifactId, text, append, lastChunk })

describe("pipeline machine", () => {
  it("runs fetch, transform, summarise in order, one artifact per step, then completes", () => {
    const { emitted, snapshot, spawned } = run([
      { type: "step.done", output: "raw" },
      { type: "step.done", output: "RAW" },
      { type: "step.done", output: "summary" }
    ])
    expect(spawned).toEqual(["fetch", "transform", "summarise"])
    expect(emitted).toEqual([chunk("fetch", "raw", false, true), chunk("transform", "RAW", false, true), chunk("summarise", "summary", false, true)])
    expect(snapshot.status).toBe("done")
    expect(snapshot.context.outputs).toEqual({ fetch: "raw", transform: "RAW", summarise: "summary" })
    expect((metaOf(snapshot)!["message"] as (c: unknown) => string)(snapshot.context)).toBe("summary")
  })

  it("feeds each step the previous step's output", () => {
    const [s0, a0] = initialTransition(pipelineMachine, { source: "http://x" })
    expect((a0.find((a) => a.type === "xstate.spawnChild")!.params as unknown as { input: unknown }).input).toEqual({ step: "fetch", input: "http://x" })
    const [, a1] = transition(pipelineMachine, s0, { type: "step.done", output: "page" })
    expect((a1.find((a) => a.type === "xstate.spawnChild")!.params as unknown as { input: unknown }).input).toEqual({ step: "transform", input: "page" })
  })

  it("streams a step's chunks as chunks of its artifact, closing it with the last", () => {
    const { emitted, snapshot } = run([
      { type: "step.chunk", text: "a" },
      { type: "step.chunk", text: "b" },
      { type: "step.chunk", text: "c" },
      { type: "step.done", output: "abc" }
    ])
    expect(emitted).toEqual([chunk("fetch", "a", false, false), chunk("fetch", "b", true, false), chunk("fetch", "c", true, true)])
    expect(snapshot.value).toBe("transform")
    expect(snapshot.context).toMatchObject({ pending: undefined, sent: 0 })
  })

  it("a failing step ends failed, naming the step", () => {
    const { snapshot } = run([{ type: "step.done", output: "raw" }, { type: "step.failed", error: "boom" }])
    expect(snapshot.value).toBe("failed")
    const meta = metaOf(snapshot)!
    expect(meta["a2a"]).toBe("failed")
    expect((meta["message"] as (c: unknown) => string)(snapshot.context)).toBe("Step transform failed: boom")
  })

  it("marks steps with the 'step' tag and working meta", () => {
    const [s] = initialTransition(pipelineMachine, { source: "s" })
    expect(s.hasTag("step")).toBe(true)
    expect(metaOf(s)).toEqual({ a2a: "working", status: "Fetching" })
  })

  it("an unprovided step fails with a message saying what to provide", async () => {
    const actor = createActor(pipelineMachine, { input: { source: "s" } }).start()
    await new Promise<void>((resolve) => actor.subscribe({ complete: resolve }))
    expect(actor.getSnapshot().context.failure?.message).toMatch(/step 'fetch' has no implementation/)
  })

  it("pipelineStep aborts its signal when the actor stops", async () => {
    let signal: AbortSignal | undefined
    let started!: () => void
    const running = new Promise<void>((r) => (started = r))
    const machine = pipelineMachine.provide({
      actors: {
        fetch: pipelineStep((_, tools) => {
          signal = tools.signal
          started()
          return new Promise<string>(() => {})
        })
      }
    })
    const actor = createActor(machine, { input: { source: "s" } }).start()
    await running
    expect(signal?.aborted).toBe(false)
    actor.stop()
    expect(signal?.aborted).toBe(true)
  })
})
