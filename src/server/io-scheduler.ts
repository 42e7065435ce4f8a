/**
 * The scheduler the server's fibers run on.
 *
 * Effect's default scheduler chains fiber work through microtasks and only falls back to a timer
 * after thousands of rounds. HTTP servers flush socket writes (and emit `drain`) from the host's
 * task queue, so while agents keep producing, nothing written reaches the client: the first event
 * of a stream waits for the agent to pause, and a fast agent runs far ahead of its reader. This
 * scheduler lets the host's I/O in after a few microtask rounds.
 */
import { Scheduler } from "effect"

/** How many microtask rounds run before the host's I/O gets a turn. */
const roundsBeforeIo = 16

/** A host macrotask: `setImmediate` where the runtime has it (Node, Bun), else a zero timer. */
const nextMacrotask: (run: () => void) => void = typeof globalThis.setImmediate === "function"
  ? (run) => void globalThis.setImmediate(run)
  : (run) => void setTimeout(run, 0)

const runners = Scheduler.SchedulerRunner.cached((depth, drain) => {
  if (depth >= roundsBeforeIo) nextMacrotask(() => drain(0))
  else void Promise.resolve().then(() => drain(depth + 1))
})

/** Runs fibers like the default scheduler, but yields to the host's I/O every few rounds. */
export const ioScheduler: Scheduler.Scheduler = {
  shouldYield: (fiber) => Scheduler.defaultScheduler.shouldYield(fiber),
  scheduleTask: (task, priority, fiber) => runners(fiber).scheduleTask(task, priority)
}
