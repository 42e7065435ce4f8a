import { describe, expect, it } from "vitest"
import { assign, createMachine, emit, setup } from "xstate"
import { compileChart } from "./compile-chart.ts"

type Emitted = { readonly type: "entered"; readonly to: string } | { readonly type: "noted" }

const door = setup({ types: { events: {} as { type: "open" } | { type: "close" } | { type: "lock" }, emitted: {} as Emitted } }).createMachine({
  initial: "closed",
  states: {
    closed: {
      on: {
        open: { target: "open", actions: emit({ type: "entered", to: "open" }) },
        close: { actions: [emit({ type: "noted" }), emit({ type: "noted" })] },
        lock: { target: "locked", actions: emit({ type: "entered", to: "locked" }) }
      }
    },
    open: { on: { close: { target: "closed", actions: emit({ type: "entered", to: "closed" }) } } },
    locked: { type: "final" }
  }
})
const doorEvents = [{ type: "open" }, { type: "close" }, { type: "lock" }] as const

describe("compileChart", () => {
  const chart = compileChart<{ readonly value: string; readonly status: string }, Emitted>(door, doorEvents)
  const node = (value: string) => chart.nodes.get(JSON.stringify(value))!

  it("reaches every state from the initial one, with XState's answer to each event", () => {
    expect([...chart.nodes.keys()]).toEqual(['"closed"', '"open"', '"locked"'])
    expect(chart.initial).toBe(node("closed"))
    expect(node("closed").cells.map((c) => [c.to.snapshot.value, c.emitted])).toEqual([
      ["open", [{ type: "entered", to: "open" }]],
      ["closed", [{ type: "noted" }, { type: "noted" }]],
      ["locked", [{ type: "entered", to: "locked" }]]
    ])
    // An event a state does not take leads back to that state and emits nothing.
    expect(node("open").cells.map((c) => [c.to.snapshot.value, c.emitted.length])).toEqual([["open", 0], ["closed", 1], ["open", 0]])
  })

  it("keeps one snapshot per state, shared by every way there", () => {
    expect(node("open").cells[1]!.to).toBe(node("closed"))
    expect(node("closed").cells[1]!.to).toBe(node("closed"))
    expect(node("closed").cells[0]!.to.snapshot).toBe(node("open").snapshot)
  })

  it("leaves a final state without answers: XState closes it", () => {
    expect(node("locked").snapshot.status).toBe("done")
    expect(node("locked").cells).toEqual([])
  })

  it("refuses a chart that keeps more than its state", () => {
    const counter = createMachine({
      types: {} as { context: { n: number }; events: { type: "inc" } },
      context: { n: 0 },
      initial: "on",
      states: { on: { on: { inc: { actions: assign({ n: ({ context }) => context.n + 1 }) } } } }
    })
    expect(() => compileChart(counter, [{ type: "inc" }])).toThrow(/keeps more than its state/)
  })

  it("refuses a chart with an action a table cannot replay", () => {
    const effectful = createMachine({
      initial: "a",
      states: { a: { on: { go: { target: "b", actions: function sideEffect() {} } } }, b: {} }
    })
    expect(() => compileChart(effectful, [{ type: "go" }])).toThrow(/emits only.*sideEffect/)
  })

  it("gives up past its bound on states, so a chart whose states never run out fails instead of hanging", () => {
    const ring = createMachine({
      initial: "s0",
      states: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`s${i}`, { on: { next: `s${(i + 1) % 20}` } }]))
    })
    expect(() => compileChart(ring, [{ type: "next" }], 10)).toThrow(/more than 10 states/)
    expect(compileChart(ring, [{ type: "next" }]).nodes.size).toBe(20)
  })
})
