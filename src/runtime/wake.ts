/**
 * Fibers that wait for plain code to wake them: a reader for a log append, a pacing agent for its reader's
 * progress, a blocking `send` for a task change, a `receive` for a message.
 *
 * Effect's `resume` runs the woken fiber at once, on the waker's stack. These wake-ups must not: the waker
 * is in the middle of one synchronous step (a machine step, its log append, its store write) that has to
 * be complete before anyone observes it, and a producer must not run its readers' work inline (nor a reader
 * its producer's), or a slow reader would stall the agent after all. So the woken fiber resumes on its own
 * scheduler's next turn, as Effect's Queue resumes its takers; wake-ups in one turn share that turn.
 */
import { Effect, Fiber } from "effect"

/**
 * Suspends the fiber until `register`'s `wake` is called (only the first call counts). `register` runs when
 * the fiber suspends and may return a cleanup effect, run if the fiber is interrupted while waiting.
 */
export const waitForWake = <A = void, E = never>(
  register: (wake: (effect: Effect.Effect<A, E>) => void) => Effect.Effect<void> | void
): Effect.Effect<A, E> =>
  Effect.callback<A, E>((resume) => {
    // `register` runs inside the suspending fiber's step, so the current fiber is the one that waits.
    const dispatcher = Fiber.getCurrent()?.currentDispatcher
    return register(dispatcher === undefined ? resume : (effect) => dispatcher.scheduleTask(() => resume(effect), 0))
  })
