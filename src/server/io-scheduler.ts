/**
 * The scheduler the server's requests and the agents they start run on.
 *
 * Effect's default scheduler dispatches every batch of fiber work with `setImmediate`, one host
 * macrotask per hop. An agent that keeps producing gets a long slice at each turn while the stream
 * writer, which needs several hops per event, advances one hop per turn: the agent runs far ahead
 * and a fast stream's first event reaches the client only after seconds. This scheduler chains a
 * few dispatches as microtasks (the writer's hops complete at once) and then yields to the host's
 * I/O with a macrotask, so socket writes and `drain` still get their turn.
 */
import { Scheduler } from "effect"

/** How many dispatches in a row run as microtasks before the host's I/O gets a turn. */
const roundsBeforeIo = 16

/** A host macrotask: `setImmediate` where the runtime has it (Node, Bun), else a zero timer. */
const nextMacrotask: (run: () => void) => void = typeof globalThis.setImmediate === "function"
  ? (run) => void globalThis.setImmediate(run)
  : (run) => void setTimeout(run, 0)

let microtaskRounds = 0

/** Runs `task` on a microtask, or on a macrotask every `roundsBeforeIo + 1`-th time; returns its cancellation. */
const dispatch = (task: () => void): (() => void) => {
  let cancelled = false
  const run = () => {
    if (!cancelled) task()
  }
  if (microtaskRounds < roundsBeforeIo) {
    microtaskRounds++
    void Promise.resolve().then(run)
  } else {
    microtaskRounds = 0
    nextMacrotask(run)
  }
  return () => {
    cancelled = true
  }
}

/** Effect's default scheduler, dispatching a few rounds as microtasks before yielding to the host's I/O. */
export const ioScheduler: Scheduler.Scheduler = new Scheduler.MixedScheduler("async", dispatch)
