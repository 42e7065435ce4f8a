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

/**
 * A fiber's dispatcher: its tasks by priority (lowest first, in order within one), run in one dispatch.
 * The same rules as Effect's `MixedScheduler` dispatcher, built by a function: that dispatcher makes its
 * dispatch callback in its constructor, and a closure a constructor makes and stores on the new object kept
 * each dispatcher, the fiber that made it and everything the fiber reached alive through young
 * collections (every fiber that ever waits gets one).
 */
const makeDispatcher = (): Scheduler.SchedulerDispatcher => {
  let buckets: Array<[number, Array<() => void>]> = []
  let cancel: (() => void) | undefined
  const runTasks = () => {
    const ready = buckets
    buckets = []
    for (let i = 0; i < ready.length; i++) {
      const tasks = ready[i]![1]
      for (let j = 0; j < tasks.length; j++) tasks[j]!()
    }
  }
  const afterScheduled = () => {
    cancel = undefined
    runTasks()
  }
  return {
    scheduleTask: (task, priority) => {
      let index = 0
      while (index < buckets.length && buckets[index]![0] < priority) index++
      const bucket = buckets[index]
      if (bucket !== undefined && bucket[0] === priority) bucket[1].push(task)
      else buckets.splice(index, 0, [priority, [task]])
      if (cancel === undefined) cancel = dispatch(afterScheduled)
    },
    flush: () => {
      while (buckets.length > 0) {
        if (cancel !== undefined) {
          cancel()
          cancel = undefined
        }
        runTasks()
      }
    }
  }
}

// Yield decisions stay Effect's own (its operation budget per fiber).
const yieldRule = new Scheduler.MixedScheduler("async", dispatch)

/** Effect's default scheduling rules, dispatching a few rounds as microtasks before yielding to the host's I/O. */
export const ioScheduler: Scheduler.Scheduler = {
  executionMode: "async",
  shouldYield: (fiber) => yieldRule.shouldYield(fiber),
  makeDispatcher
}
