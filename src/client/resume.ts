/**
 * Resuming a dropped stream without losing or repeating events.
 *
 * When a `message/stream` or `tasks/resubscribe` connection breaks before its final event, the client
 * reconnects with `tasks/resubscribe` for the task it learned from the events so far:
 *
 * - With SSE ids (our server numbers each task's events 1, 2, 3, ...), it sends `Last-Event-ID` and drops
 *   any replayed event whose id is not above the last one delivered.
 * - Without ids (the JS SDK server), the server answers with a Task snapshot and then live events. The
 *   snapshot is delivered only when it says something the caller has not seen (a different status or
 *   different artifacts), and an update identical to one already delivered is dropped.
 *
 * Reconnections are bounded: `maxAttempts` consecutive attempts that deliver nothing new end the stream
 * with the last transport error. A stream whose final event arrived never reconnects; a resumed
 * connection that closes cleanly without anything new ends the stream quietly (the server has nothing
 * live left to send, e.g. the JS SDK for a task whose agent already stopped).
 *
 * @module
 */
import { Duration, Effect, Result, Stream } from "effect"
import type { StreamResult } from "../../schemas/events.ts"
import type { ProtocolError } from "../../schemas/error-catalogue.ts"
import { A2AClientTransportError } from "./errors.ts"
import type { RpcFrame } from "./json-rpc-transport.ts"

/** How a dropped stream is resumed. */
export interface ResumePolicy {
  /** Consecutive reconnections without a new event before giving up; 0 disables resuming. */
  readonly maxAttempts: number
  /** Delay before the first reconnection; doubled on each further attempt, capped at 5 s. */
  readonly backoffMs: number
}

type StreamError = ProtocolError | A2AClientTransportError

/** Opens `tasks/resubscribe` for a task, with `Last-Event-ID` when one is known. */
export type Reconnect = (taskId: string, lastEventId: string | undefined) => Stream.Stream<RpcFrame<StreamResult>, StreamError>

const TERMINAL = new Set(["completed", "canceled", "failed", "rejected"])
const RECENT_KEYS = 512

/** A JSON text with sorted keys, so equal objects give equal keys whatever the property order. */
const stableKey = (value: unknown): string =>
  JSON.stringify(value, (_k, v: unknown) =>
    typeof v === "object" && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v)

/**
 * A 64-bit digest (two FNV-1a passes with different offsets) of a text. Only digests are remembered, so
 * the memory held for de-duplication stays small whatever the size of the events.
 */
const digest = (text: string): string => {
  let a = 0x811c9dc5
  let b = 0x01000193 ^ 0x5bd1e995
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x0100019d)
  }
  return `${(a >>> 0).toString(16)}${(b >>> 0).toString(16)}`
}

/** The digest of an artifact's parts, extendable by appended chunks without keeping the parts. */
const foldParts = (start: string, parts: ReadonlyArray<unknown>): string =>
  parts.reduce<string>((acc, part) => digest(`${acc}|${stableKey(part)}`), start)

/** True for failures worth a reconnection: the connection, not the agent, went wrong. */
export const isResumable = (e: StreamError): e is A2AClientTransportError =>
  e._tag === "A2AClientTransportError" &&
  (e.reason === "Dropped" || e.reason === "Unreachable" || e.reason === "Timeout" ||
    (e.reason === "HttpStatus" && (e.status === 502 || e.status === 503 || e.status === 504)))

/** What the client knows of the stream so far. */
class ResumeState {
  taskId: string | undefined
  lastId: string | undefined
  lastSeq: number | undefined
  finished = false
  private status: string | undefined
  private readonly artifacts = new Map<string, string>()
  private readonly recent: Array<string> = []
  private readonly recentSet = new Set<string>()

  constructor(taskId: string | undefined) {
    this.taskId = taskId
  }

  /** Returns the event to deliver, or undefined for a duplicate. */
  accept(frame: RpcFrame<StreamResult>, resumed: boolean): StreamResult | undefined {
    const numbered = frame.id !== undefined && /^\d+$/.test(frame.id) ? Number(frame.id) : undefined
    // 0 numbers a snapshot that reflects no known position (our server's answer for a finished task whose
    // log is gone): it is judged by its content, like an event without id, and never moves the resume point.
    const seq = numbered === 0 ? undefined : numbered
    if (seq !== undefined && this.lastSeq !== undefined && seq <= this.lastSeq) return undefined
    const event = frame.result
    if (seq === undefined) {
      // Content keys matter only for events without a sequence number.
      const key = digest(stableKey(event))
      if (resumed && this.isRepeat(event, key)) return undefined
      this.remember(key)
    }
    if (frame.id !== undefined && numbered !== 0) this.lastId = frame.id
    if (seq !== undefined) this.lastSeq = seq
    this.apply(event)
    return event
  }

  private isRepeat(event: StreamResult, key: string): boolean {
    if (event.kind !== "task") return this.recentSet.has(key)
    if (digest(stableKey(event.status)) !== this.status) return false
    const artifacts = event.artifacts ?? []
    return artifacts.length === this.artifacts.size &&
      artifacts.every((a) => this.artifacts.get(a.artifactId) === foldParts("", a.parts))
  }

  private remember(key: string): void {
    if (this.recentSet.has(key)) return
    this.recent.push(key)
    this.recentSet.add(key)
    if (this.recent.length > RECENT_KEYS) this.recentSet.delete(this.recent.shift()!)
  }

  private apply(event: StreamResult): void {
    switch (event.kind) {
      case "task":
        this.taskId ??= event.id
        this.status = digest(stableKey(event.status))
        this.artifacts.clear()
        for (const a of event.artifacts ?? []) this.artifacts.set(a.artifactId, foldParts("", a.parts))
        if (TERMINAL.has(event.status.state)) this.finished = true
        return
      case "message":
        // A single Message answering message/stream is the whole stream.
        if (this.taskId === undefined) this.finished = true
        return
      case "status-update":
        this.taskId ??= event.taskId
        this.status = digest(stableKey(event.status))
        if (event.final) this.finished = true
        return
      case "artifact-update": {
        this.taskId ??= event.taskId
        const before = event.append === true ? this.artifacts.get(event.artifact.artifactId) : undefined
        this.artifacts.set(event.artifact.artifactId, foldParts(before ?? "", event.artifact.parts))
        return
      }
    }
  }
}

/**
 * Wraps the first connection of a stream with automatic resumption. `knownTaskId` is the task of a
 * `tasks/resubscribe` (for `message/stream` it is learned from the first event).
 */
export const withResume = (
  first: Stream.Stream<RpcFrame<StreamResult>, StreamError>,
  reconnect: Reconnect,
  policy: ResumePolicy,
  url: string,
  knownTaskId?: string
): Stream.Stream<StreamResult, StreamError> => {
  const state = new ResumeState(knownTaskId)
  const connection = (
    source: Stream.Stream<RpcFrame<StreamResult>, StreamError>,
    resumed: boolean,
    failedAttempts: number
  ): Stream.Stream<StreamResult, StreamError> =>
    Stream.suspend(() => {
      let delivered = 0
      let dropped: A2AClientTransportError | undefined
      const events = source.pipe(
        Stream.filterMap((frame) => {
          const event = state.accept(frame, resumed)
          if (event === undefined) return Result.failVoid
          delivered++
          return Result.succeed(event)
        }),
        Stream.catch((e) => {
          if (!isResumable(e)) return Stream.fail(e)
          dropped = e
          return Stream.empty
        })
      )
      const next = Stream.suspend((): Stream.Stream<StreamResult, StreamError> => {
        if (state.finished) return Stream.empty
        const attempts = delivered > 0 ? 0 : failedAttempts
        if (dropped === undefined && resumed && delivered === 0) return Stream.empty
        if (state.taskId === undefined) return dropped === undefined ? Stream.empty : Stream.fail(dropped)
        if (attempts >= policy.maxAttempts) {
          return Stream.fail(
            dropped ?? new A2AClientTransportError({
              reason: "Dropped",
              message: `the stream of task ${state.taskId} ended before its final event`,
              url
            })
          )
        }
        const delay = Duration.millis(Math.min(policy.backoffMs * 2 ** attempts, 5_000))
        const taskId = state.taskId
        return Stream.fromEffect(Effect.sleep(delay)).pipe(
          Stream.drain,
          Stream.concat(connection(Stream.suspend(() => reconnect(taskId, state.lastId)), true, attempts + 1))
        )
      })
      return Stream.concat(events, next)
    })
  return connection(first, false, 0)
}
