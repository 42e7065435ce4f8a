/**
 * The server's metrics, named by OpenTelemetry's semantic conventions where one exists
 * (`http.server.request.duration`, in seconds) and `a2a.*` otherwise, and the calls that record them.
 * Made only when metrics are on; every call records into the server's own registry.
 *
 * @module
 */
import { type Context, Metric } from "effect"

/** Bucket bounds of a duration in seconds: the ones OpenTelemetry recommends for `http.server.request.duration`. */
const secondsBuckets = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]

/** Every metric the server records, by name, with what it counts (the docs' metrics list is this table). */
export const metricNames = {
  requestDuration: "http.server.request.duration",
  requests: "a2a.server.requests",
  tasksCreated: "a2a.tasks.created",
  tasks: "a2a.tasks",
  transitions: "a2a.task.transitions",
  streams: "a2a.server.streams",
  streamEvents: "a2a.server.stream.events",
  replays: "a2a.server.stream.replays",
  pushDeliveries: "a2a.push.deliveries",
  pushDuration: "a2a.push.delivery.duration",
  storeDuration: "a2a.store.operation.duration",
  storeFailures: "a2a.store.failures",
  leaseTakeovers: "a2a.lease.takeovers",
  auditRecords: "a2a.audit.records",
  auditDrops: "a2a.audit.drops"
} as const

/**
 * A metric's name in Prometheus, as OpenTelemetry's Prometheus exporters spell it: dots become underscores
 * (done by the formatter), a counter ends in `_total`, a duration in seconds in `_seconds`.
 */
export const prometheusName = (name: string): string => {
  if (name === metricNames.requestDuration || name === metricNames.pushDuration || name === metricNames.storeDuration) return `${name}_seconds`
  return counterNames.has(name) ? `${name}_total` : name
}

const counterNames: ReadonlySet<string> = new Set([
  metricNames.requests,
  metricNames.tasksCreated,
  metricNames.transitions,
  metricNames.streamEvents,
  metricNames.replays,
  metricNames.pushDeliveries,
  metricNames.storeFailures,
  metricNames.leaseTakeovers,
  metricNames.auditRecords,
  metricNames.auditDrops
])

const requestDuration = Metric.histogram(metricNames.requestDuration, {
  description: "Duration of A2A requests until their answer starts, in seconds (a stream's answer starts with its first event)",
  boundaries: secondsBuckets
})
const requests = Metric.counter(metricNames.requests, { description: "A2A requests answered, by method and outcome", incremental: true })
const tasksCreated = Metric.counter(metricNames.tasksCreated, { description: "Tasks created", incremental: true })
const tasks = Metric.gauge(metricNames.tasks, { description: "Unfinished tasks of this instance, by state (working: running; input-required, auth-required: waiting)" })
const transitions = Metric.counter(metricNames.transitions, { description: "Task lifecycle transitions, by the state entered", incremental: true })
const streams = Metric.gauge(metricNames.streams, { description: "Open SSE streams" })
const streamEvents = Metric.counter(metricNames.streamEvents, { description: "Events written to SSE streams", incremental: true })
const replays = Metric.counter(metricNames.replays, { description: "Streams that replayed a task's event log (resubscribe, Last-Event-ID)", incremental: true })
const pushDeliveries = Metric.counter(metricNames.pushDeliveries, { description: "Push-notification attempts, by outcome", incremental: true })
const pushDuration = Metric.histogram(metricNames.pushDuration, { description: "Duration of one push-notification attempt, in seconds", boundaries: secondsBuckets })
const storeDuration = Metric.histogram(metricNames.storeDuration, { description: "Duration of task-store operations, in seconds", boundaries: secondsBuckets })
const storeFailures = Metric.counter(metricNames.storeFailures, { description: "Task-store operations that failed", incremental: true })
const leaseTakeovers = Metric.counter(metricNames.leaseTakeovers, { description: "Tasks this instance took over from another one", incremental: true })
const auditRecords = Metric.counter(metricNames.auditRecords, { description: "Audit events recorded", incremental: true })
const auditDrops = Metric.counter(metricNames.auditDrops, { description: "Audit events that could not be recorded", incremental: true })

/** What a request's metrics are split by. */
export interface RequestFacts {
  readonly method: string
  readonly binding: "jsonrpc" | "rest"
  readonly version: string
  /** `ok`, or the A2A/JSON-RPC error code. */
  readonly outcome: string
}

/** The recording calls, bound to one server's registry. */
export interface Instruments {
  readonly request: (facts: RequestFacts, seconds: number) => void
  readonly taskCreated: () => void
  /** A task entered `state`: it leaves `previous` (when it was counted there) and, unless `state` ends it, is counted in `state`. */
  readonly taskState: (previous: string | undefined, state: string, terminal: boolean) => void
  readonly streamOpened: () => void
  readonly streamClosed: () => void
  readonly streamEvents: (count: number) => void
  readonly replay: () => void
  readonly push: (outcome: string, seconds: number | undefined) => void
  readonly store: (operation: string, seconds: number, failed: boolean) => void
  readonly leaseTakeover: () => void
  readonly audit: (recorded: boolean) => void
}

/** Instruments recording into the `MetricRegistry` of `context`. */
export const makeInstruments = (context: Context.Context<never>): Instruments => {
  const byState = new Map<string, Metric.Gauge<number>>()
  const transitionsTo = new Map<string, Metric.Counter<number>>()
  const requestSeries = new Map<string, readonly [Metric.Counter<number>, Metric.Histogram<number>]>()
  const stateGauge = (state: string) => {
    let gauge = byState.get(state)
    if (gauge === undefined) byState.set(state, gauge = Metric.withAttributes(tasks, { "a2a.task.state": state }))
    return gauge
  }
  return {
    request: (facts, seconds) => {
      // One pair of series per method and outcome, bound once: binding attributes allocates and hashes.
      const key = `${facts.method} ${facts.binding} ${facts.version} ${facts.outcome}`
      let series = requestSeries.get(key)
      if (series === undefined) {
        const attributes = {
          "a2a.method": facts.method,
          "a2a.binding": facts.binding,
          "a2a.version": facts.version,
          "a2a.outcome": facts.outcome
        }
        requestSeries.set(key, series = [Metric.withAttributes(requests, attributes), Metric.withAttributes(requestDuration, attributes)])
      }
      series[0].updateUnsafe(1, context)
      series[1].updateUnsafe(seconds, context)
    },
    taskCreated: () => tasksCreated.updateUnsafe(1, context),
    taskState: (previous, state, terminal) => {
      if (previous !== undefined) stateGauge(previous).modifyUnsafe(-1, context)
      if (!terminal) stateGauge(state).modifyUnsafe(1, context)
      let counter = transitionsTo.get(state)
      if (counter === undefined) transitionsTo.set(state, counter = Metric.withAttributes(transitions, { "a2a.task.state": state }))
      counter.updateUnsafe(1, context)
    },
    streamOpened: () => streams.modifyUnsafe(1, context),
    streamClosed: () => streams.modifyUnsafe(-1, context),
    streamEvents: (count) => streamEvents.updateUnsafe(count, context),
    replay: () => replays.updateUnsafe(1, context),
    push: (outcome, seconds) => {
      Metric.withAttributes(pushDeliveries, { "a2a.push.outcome": outcome }).updateUnsafe(1, context)
      if (seconds !== undefined) Metric.withAttributes(pushDuration, { "a2a.push.outcome": outcome }).updateUnsafe(seconds, context)
    },
    store: (operation, seconds, failed) => {
      Metric.withAttributes(storeDuration, { "db.operation.name": operation }).updateUnsafe(seconds, context)
      if (failed) Metric.withAttributes(storeFailures, { "db.operation.name": operation }).updateUnsafe(1, context)
    },
    leaseTakeover: () => leaseTakeovers.updateUnsafe(1, context),
    audit: (recorded) => (recorded ? auditRecords : auditDrops).updateUnsafe(1, context)
  }
}
