/**
 * What a server exports about itself: OpenTelemetry traces, metrics and logs over OTLP/HTTP, and metrics in
 * Prometheus' text format. Everything is off unless asked for, and then costs only where it is on.
 *
 * @module
 */

/** Where OTLP/HTTP export goes; every field falls back to the standard `OTEL_*` environment variable. */
export interface OtlpExportOptions {
  /**
   * The collector's base URL; signals go to `/v1/traces`, `/v1/metrics` and `/v1/logs` below it. Default
   * `OTEL_EXPORTER_OTLP_ENDPOINT`; with neither, the server refuses to start.
   */
  readonly endpoint?: string
  /** Headers sent with every export (e.g. a vendor's API key). Default `OTEL_EXPORTER_OTLP_HEADERS` (`k=v,k2=v2`). */
  readonly headers?: Readonly<Record<string, string>>
  /** Encoding of the bodies. Default `OTEL_EXPORTER_OTLP_PROTOCOL`, else `"http/protobuf"`. */
  readonly protocol?: "http/protobuf" | "http/json"
  /** The `service.name` of the resource. Default `OTEL_SERVICE_NAME`, else the card's name. */
  readonly serviceName?: string
  /** How often buffered spans, metrics and logs are sent, in ms. Default 5,000; everything left is sent on `dispose`. */
  readonly exportIntervalMs?: number
  /** Export spans. Default true. */
  readonly traces?: boolean
  /** Export metrics. Default true. */
  readonly metrics?: boolean
  /** Export the server's log lines, with the trace and span they were written in. Default true. */
  readonly logs?: boolean
}

/** Serving metrics in Prometheus' text format. */
export interface PrometheusOptions {
  /**
   * The path served among the server's own routes, behind the server's authentication when its card
   * declares `security` (a scraper sends credentials like any caller). Default `/metrics`.
   */
  readonly path?: string
}

/** The server's `telemetry` option. */
export interface TelemetryOptions {
  /** Export traces, metrics and logs over OTLP/HTTP: `true` takes everything from the `OTEL_*` environment. */
  readonly otlp?: boolean | OtlpExportOptions
  /**
   * Serve the metrics in Prometheus' text format at `path` on the server itself (`true`: `/metrics`). For a
   * port of its own, leave this off and serve `A2AServerHandle.metrics` (see the adapters' `serveMetrics`).
   */
  readonly prometheus?: boolean | PrometheusOptions
  /**
   * Keep metrics for `A2AServerHandle.metrics` even with neither export on (for a scraper on a port of its
   * own). Default: on when `otlp` or `prometheus` is.
   */
  readonly metrics?: boolean
}
