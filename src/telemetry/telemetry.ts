/**
 * One server's telemetry: the OTLP exporters of `effect/observability` (traces, metrics, logs) and a metric
 * registry of its own, as the services its requests and background fibers run with. `undefined` when
 * nothing is on: every hook in the server is then one `undefined` check.
 *
 * @module
 */
import { Config, ConfigProvider, Context, Effect, Layer, Metric, Option, type Scope, Tracer } from "effect"
import { CurrentTelemetry } from "./trace-context.ts"
import { FetchHttpClient } from "effect/http"
import { OtlpExporter, OtlpLogger, OtlpMetrics, OtlpSerialization, OtlpTracer, PrometheusMetrics } from "effect/observability"
import { type Instruments, makeInstruments, prometheusName } from "./instruments.ts"
import type { OtlpExportOptions, TelemetryOptions } from "./telemetry-options.ts"

/** A server's telemetry, when any of it is on. */
export interface Telemetry {
  /** The exporting tracer, when traces go out. */
  readonly tracer: Tracer.Tracer | undefined
  /** The metric calls, when metrics are kept. */
  readonly instruments: Instruments | undefined
  /** The services every fiber of the server runs with (tracer, metric registry, loggers, this telemetry). */
  readonly context: Context.Context<never>
  /** Where the server serves Prometheus' text format, when it does. */
  readonly prometheusPath: string | undefined
  /** The metrics in Prometheus' text format. */
  readonly prometheusText: () => string
  /** Sends whatever is buffered now. */
  readonly flush: Effect.Effect<void>
  /** The open span of each task this instance hosts, while it traces (see task-telemetry.ts). */
  readonly taskSpans: Map<string, Tracer.Span>
}


/** `OTEL_EXPORTER_OTLP_HEADERS`: `key=value` pairs separated by commas, each side URL-encoded. */
export const parseOtlpHeaders = (text: string): Record<string, string> => {
  const headers: Record<string, string> = {}
  for (const pair of text.split(",")) {
    const at = pair.indexOf("=")
    if (at <= 0) continue
    const key = decodeURIComponent(pair.slice(0, at).trim())
    if (key !== "") headers[key] = decodeURIComponent(pair.slice(at + 1).trim())
  }
  return headers
}

const optionalEnv = (name: string) => Config.option(Config.String(name))

interface ResolvedOtlp {
  readonly endpoint: string
  readonly headers: Record<string, string> | undefined
  readonly protocol: "http/protobuf" | "http/json"
  readonly serviceName: string
  readonly intervalMs: number
  readonly traces: boolean
  readonly metrics: boolean
  readonly logs: boolean
}

const resolveOtlp = (given: OtlpExportOptions, defaultServiceName: string): Effect.Effect<ResolvedOtlp> =>
  Effect.gen(function*() {
    const env = yield* Config.all({
      endpoint: optionalEnv("OTEL_EXPORTER_OTLP_ENDPOINT"),
      headers: optionalEnv("OTEL_EXPORTER_OTLP_HEADERS"),
      protocol: optionalEnv("OTEL_EXPORTER_OTLP_PROTOCOL"),
      serviceName: optionalEnv("OTEL_SERVICE_NAME")
    }).pipe(
      // The environment as it is when the server starts (Effect's default provider keeps the one it first saw).
      Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv()),
      Effect.orDie
    )
    const endpoint = given.endpoint ?? Option.getOrUndefined(env.endpoint)
    if (endpoint === undefined || endpoint === "") {
      return yield* Effect.die(new Error("OTLP export needs an endpoint: set OTEL_EXPORTER_OTLP_ENDPOINT or `telemetry.otlp.endpoint`"))
    }
    const protocol = given.protocol ?? Option.getOrUndefined(env.protocol) ?? "http/protobuf"
    if (protocol !== "http/protobuf" && protocol !== "http/json") {
      return yield* Effect.die(new Error(`OTLP export speaks "http/protobuf" or "http/json", not ${JSON.stringify(protocol)} (OTEL_EXPORTER_OTLP_PROTOCOL)`))
    }
    return {
      endpoint: endpoint.replace(/\/+$/, ""),
      headers: given.headers !== undefined ? { ...given.headers } : Option.match(env.headers, { onNone: () => undefined, onSome: parseOtlpHeaders }),
      protocol,
      serviceName: given.serviceName ?? Option.getOrUndefined(env.serviceName) ?? defaultServiceName,
      intervalMs: given.exportIntervalMs ?? 5_000,
      traces: given.traces ?? true,
      metrics: given.metrics ?? true,
      logs: given.logs ?? true
    }
  })

/** The exporters `otlp` asks for, writing into `registry`. */
const otlpLayer = (otlp: ResolvedOtlp, registry: Context.Context<never>) => {
  const resource = { serviceName: otlp.serviceName }
  const common = { resource, headers: otlp.headers, exportInterval: otlp.intervalMs }
  const layers: Array<Layer.Layer<never, never, never>> = []
  const serialization = otlp.protocol === "http/json" ? OtlpSerialization.layerJson : OtlpSerialization.layerProtobuf
  const provided = <A>(layer: Layer.Layer<A, never, any>) =>
    layer.pipe(Layer.provide(Layer.mergeAll(serialization, FetchHttpClient.layer, Layer.succeedContext(registry)))) as Layer.Layer<A>
  if (otlp.traces) layers.push(provided(OtlpTracer.layer({ url: `${otlp.endpoint}/v1/traces`, ...common })) as Layer.Layer<never>)
  if (otlp.metrics) layers.push(provided(OtlpMetrics.layer({ url: `${otlp.endpoint}/v1/metrics`, ...common })) as Layer.Layer<never>)
  if (otlp.logs) layers.push(provided(OtlpLogger.layer({ url: `${otlp.endpoint}/v1/logs`, ...common, mergeWithExisting: true })) as Layer.Layer<never>)
  return Layer.mergeAll(OtlpExporter.layerFlusher, ...layers)
}

/**
 * Starts the telemetry `options` ask for, for as long as `Scope` lives (closing it sends what is left).
 * `undefined` when they ask for nothing.
 */
export const makeTelemetry = (
  options: TelemetryOptions | undefined,
  defaultServiceName: string
): Effect.Effect<Telemetry | undefined, never, Scope.Scope> =>
  Effect.gen(function*() {
    if (options === undefined) return undefined
    const otlp = options.otlp === undefined || options.otlp === false
      ? undefined
      : yield* resolveOtlp(options.otlp === true ? {} : options.otlp, defaultServiceName)
    const prometheusPath = options.prometheus === undefined || options.prometheus === false
      ? undefined
      : (options.prometheus === true ? undefined : options.prometheus.path) ?? "/metrics"
    const keepMetrics = options.metrics ?? (prometheusPath !== undefined || otlp?.metrics === true)
    if (otlp === undefined && !keepMetrics) return undefined
    const registry = Context.make(Metric.MetricRegistry, new Map())
    let services = registry
    if (otlp !== undefined) services = Context.merge(services, yield* Layer.build(otlpLayer(otlp, registry)))
    const tracer = otlp?.traces === true ? Context.get(services, Tracer.Tracer) : undefined
    const flush = otlp === undefined ? Effect.void : Context.get(services as Context.Context<OtlpExporter.Flusher>, OtlpExporter.Flusher).flush
    const telemetry: { -readonly [K in keyof Telemetry]: Telemetry[K] } = {
      tracer,
      instruments: keepMetrics ? makeInstruments(registry) : undefined,
      context: services,
      prometheusPath,
      prometheusText: () => PrometheusMetrics.formatUnsafe(registry, { metricNameMapper: prometheusName }),
      flush,
      taskSpans: new Map()
    }
    telemetry.context = Context.add(services, CurrentTelemetry, telemetry)
    return telemetry
  })
