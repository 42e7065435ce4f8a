import { describe, expect, it } from "vitest"
import { createActor, createMachine, initialTransition, transition } from "xstate"
import { artifactParts, isA2AEmitted, stateAction } from "./state-meta.ts"

const machine = createMachine({
  types: {} as { context: { n: number }; events: { type: "ask" } | { type: "end" } | { type: "done" } },
  context: { n: 2 },
  initial: "busy",
  states: {
    busy: { meta: { a2a: "working", status: ({ n }: { n: number }) => `step ${n}` }, on: { ask: "asking", done: "plain" } },
    asking: {
      meta: { a2a: "working" },
      initial: "inner",
      states: { inner: { meta: { a2a: "input-required", prompt: "Which one?" } } },
      on: { end: "refused" }
    },
    refused: { type: "final", meta: { a2a: "rejected", message: ({ n }: { n: number }) => `no (${n})` } },
    plain: { type: "final" }
  }
})

describe("stateAction", () => {
  it("reads working status text computed from the context", () => {
    expect(stateAction(initialTransition(machine)[0])).toEqual({ _tag: "Run", status: "step 2" })
  })

  it("a child state's meta overrides its parent's", () => {
    const [s] = transition(machine, initialTransition(machine)[0], { type: "ask" })
    expect(stateAction(s)).toEqual({ _tag: "Wait", kind: "input-required", prompt: "Which one?" })
  })

  it("a final state finishes by its meta, or completes without one", () => {
    const [asking] = transition(machine, initialTransition(machine)[0], { type: "ask" })
    expect(stateAction(transition(machine, asking, { type: "end" })[0])).toEqual({ _tag: "Finish", state: "rejected", message: "no (2)" })
    expect(stateAction(transition(machine, initialTransition(machine)[0], { type: "done" })[0]))
      .toEqual({ _tag: "Finish", state: "completed", message: undefined })
  })

  it("a machine that errored is reported as crashed", () => {
    const broken = createMachine({ initial: "a", states: { a: { entry: () => { throw new Error("bug") } } } })
    const actor = createActor(broken)
    actor.subscribe({ error: () => {} })
    actor.start()
    expect(stateAction(actor.getSnapshot())).toEqual({ _tag: "Crashed", message: "Workflow error: bug" })
  })
})

describe("emitted events", () => {
  it("accepts artifacts with content and status with text, nothing else", () => {
    expect(isA2AEmitted({ type: "a2a.artifact", text: "x" } as never)).toBe(true)
    expect(isA2AEmitted({ type: "a2a.artifact", data: { a: 1 } } as never)).toBe(true)
    expect(isA2AEmitted({ type: "a2a.artifact" })).toBe(false)
    expect(isA2AEmitted({ type: "a2a.status", text: "hi" } as never)).toBe(true)
    expect(isA2AEmitted({ type: "other", text: "hi" } as never)).toBe(false)
  })

  it("builds parts from text and data", () => {
    expect(artifactParts({ type: "a2a.artifact", text: "t", data: { k: 1 } }))
      .toEqual([{ kind: "text", text: "t" }, { kind: "data", data: { k: 1 } }])
  })
})
