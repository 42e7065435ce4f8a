/**
 * The delivery queue's bookkeeping, free of effects: one lane per (task, config) holding the
 * snapshots not yet sent, in order. Bounds are kept by coalescing: a newer Task snapshot supersedes
 * an older queued one, so the latest snapshot of a lane (which holds the terminal state once there
 * is one) is never what gets thrown away.
 *
 * @module
 */
import type { PushNotificationConfig, Task } from "../../schemas/index.ts"

/** The work a lane hands its worker: the next snapshot, with the lane's latest config. */
export interface LaneItem {
  readonly key: string
  readonly taskId: string
  readonly config: PushNotificationConfig
  readonly task: Task
}

/** What happened to an offered snapshot. */
export interface OfferResult {
  readonly key: string
  /** The lane is new: the caller starts its worker. */
  readonly start: boolean
  /** Snapshots removed to stay in bounds (each superseded by a later one of its lane). */
  readonly superseded: ReadonlyArray<LaneItem>
  /** The snapshot itself could not be queued: every lane already holds only its latest snapshot. */
  readonly dropped: boolean
}

/** Bounds of the book. */
export interface LaneLimits {
  /** Queued snapshots per lane, not counting the one in flight. */
  readonly perLane: number
  /** Queued snapshots over all lanes. */
  readonly total: number
}

interface Lane {
  readonly key: string
  readonly taskId: string
  config: PushNotificationConfig
  readonly pending: Array<Task>
}

/** The lane key of a (task, config) pair. */
export const laneKey = (taskId: string, config: PushNotificationConfig): string =>
  `${taskId}\u0000${config.id ?? config.url}`

/** Lanes of queued snapshots; see the module comment. */
export class LaneBook {
  private readonly lanes = new Map<string, Lane>()
  private queued = 0

  constructor(private readonly limits: LaneLimits) {}

  /** Number of live lanes (queued or in flight). Zero means idle. */
  get size(): number {
    return this.lanes.size
  }

  /** Queues `task` on its lane behind earlier snapshots; the lane's config becomes `config`. */
  offer(taskId: string, config: PushNotificationConfig, task: Task): OfferResult {
    const key = laneKey(taskId, config)
    const existing = this.lanes.get(key)
    const lane = existing ?? { key, taskId, config, pending: [] }
    lane.config = config
    const superseded: Array<LaneItem> = []
    if (lane.pending.length >= this.limits.perLane || (this.queued >= this.limits.total && lane.pending.length > 0)) {
      superseded.push(this.removeAt(lane, lane.pending.length - 1))
    } else if (this.queued >= this.limits.total) {
      const victim = this.longestLane()
      if (victim === undefined) return { key, start: false, superseded, dropped: true }
      superseded.push(this.removeAt(victim, victim.pending.length - 2))
    }
    lane.pending.push(task)
    this.queued++
    if (existing === undefined) this.lanes.set(key, lane)
    return { key, start: existing === undefined, superseded, dropped: false }
  }

  /** The next snapshot of a lane, or `undefined` after removing the drained lane. */
  take(key: string): LaneItem | undefined {
    const lane = this.lanes.get(key)
    if (lane === undefined) return undefined
    const task = lane.pending.shift()
    if (task === undefined) {
      this.lanes.delete(key)
      return undefined
    }
    this.queued--
    return { key, taskId: lane.taskId, config: lane.config, task }
  }

  private removeAt(lane: Lane, index: number): LaneItem {
    const [task] = lane.pending.splice(index, 1)
    this.queued--
    return { key: lane.key, taskId: lane.taskId, config: lane.config, task: task! }
  }

  // A lane with two or more queued snapshots can give one up and still keep its latest.
  private longestLane(): Lane | undefined {
    let best: Lane | undefined
    for (const lane of this.lanes.values()) {
      if (lane.pending.length >= 2 && (best === undefined || lane.pending.length > best.pending.length)) best = lane
    }
    return best
  }
}
