/**
 * Compiles a statechart whose answers depend only on its state and the event into a table, with XState's
 * documented pure functions: `initialTransition` gives the first state, `transition` the answer to each
 * event of a finite space from each state reached, until no new state appears. The table keeps XState's
 * own snapshots, one per state, shared by everyone who reads the table, and the events each answer emits.
 *
 * Compiling checks what makes the table exact: a state's snapshot must be the same however it was
 * reached (the chart keeps nothing beyond its state, or the states would never run out), and every action
 * must be an `emit` (an action a live actor would run itself cannot be replayed from a table).
 *
 * @internal
 * @module
 */
import { initialTransition, transition, type AnyStateMachine, type EventObject } from "xstate"

/** One state of a compiled chart. */
export interface ChartNode<TSnapshot, TEmitted> {
  /** XState's snapshot in this state (the first `transition` or `initialTransition` returned). */
  readonly snapshot: TSnapshot
  /** The answer to each event of the space, at the event's index; none in a final state (XState closes it). */
  readonly cells: ReadonlyArray<ChartCell<TSnapshot, TEmitted>>
}

/** What one event does in one state: the state it leads to and the events the chart emits, in order. */
export interface ChartCell<TSnapshot, TEmitted> {
  readonly to: ChartNode<TSnapshot, TEmitted>
  readonly emitted: ReadonlyArray<TEmitted>
}

/** A chart compiled over a finite event space. */
export interface CompiledChart<TSnapshot, TEmitted> {
  readonly initial: ChartNode<TSnapshot, TEmitted>
  /** What the chart emits on starting. */
  readonly initialEmitted: ReadonlyArray<TEmitted>
  /** Every state reached from the initial one, by its state value (as JSON). */
  readonly nodes: ReadonlyMap<string, ChartNode<TSnapshot, TEmitted>>
}

interface Snapshot {
  readonly value: unknown
  readonly status: string
}

/**
 * The events a list of actions from `transition` emits. `transition` returns an `emit` as the action
 * `{ type: "xstate.emit", params: { event } }` (XState's own tests of `transition` check that shape);
 * `event` is what a live actor gives its `actor.on` listeners when it executes the action.
 */
const emittedOf = <TEmitted>(actions: ReadonlyArray<{ readonly type: string; readonly params: unknown }>): ReadonlyArray<TEmitted> =>
  Object.freeze(actions.map((action) => {
    if (action.type !== "xstate.emit") {
      throw new Error(`a compiled chart's actions are emits only; this one runs '${action.type}', which a table cannot replay`)
    }
    return Object.freeze((action.params as { readonly event: TEmitted }).event)
  }))

/**
 * The table of `machine` over `events` (the answer to `events[i]` is each node's `cells[i]`). Throws when
 * the chart is not a function of its state and the event (see the module documentation), or reaches more
 * than `maxStates` states.
 */
export const compileChart = <TSnapshot, TEmitted>(
  machine: AnyStateMachine,
  events: ReadonlyArray<EventObject>,
  maxStates = 1000
): CompiledChart<TSnapshot, TEmitted> => {
  interface Node {
    readonly snapshot: TSnapshot
    readonly cells: Array<ChartCell<TSnapshot, TEmitted>>
  }
  const byContent = new Map<string, Node>()
  const nodes = new Map<string, Node>()
  const queue: Array<Node> = []
  const nodeOf = (snapshot: TSnapshot): Node => {
    const content = JSON.stringify(machine.getPersistedSnapshot(snapshot as never))
    const known = byContent.get(content)
    if (known !== undefined) return known
    const value = JSON.stringify((snapshot as Snapshot).value)
    if (nodes.has(value)) throw new Error(`the chart keeps more than its state: ${value} has two snapshots (${content})`)
    if (nodes.size === maxStates) throw new Error(`the chart reaches more than ${maxStates} states over these events`)
    const node: Node = { snapshot, cells: [] }
    byContent.set(content, node)
    nodes.set(value, node)
    queue.push(node)
    return node
  }
  const [first, started] = initialTransition(machine)
  const initial = nodeOf(first as TSnapshot)
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!
    if ((node.snapshot as Snapshot).status !== "active") continue
    for (const event of events) {
      const [next, actions] = transition(machine, node.snapshot as never, event)
      node.cells.push(Object.freeze({ to: nodeOf(next as TSnapshot), emitted: emittedOf<TEmitted>(actions) }))
    }
  }
  return { initial, initialEmitted: emittedOf<TEmitted>(started), nodes }
}
