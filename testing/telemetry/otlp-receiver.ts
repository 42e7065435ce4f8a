/**
 * An OTLP/HTTP receiver on loopback for tests: it takes what an OTLP exporter posts to `/v1/traces`,
 * `/v1/metrics` and `/v1/logs` (OTLP's JSON encoding, `application/json`), decodes it into flat spans,
 * metric points and log records, and answers as a collector does. Anything else is refused: a protobuf body
 * with 415, another path with 404, a body that is not OTLP JSON with 400, so a test sees a wrong exporter.
 */
import { Buffer } from "node:buffer"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

/** An attribute value as OTLP JSON spells it, read back to a plain value. */
export type AttributeValue = string | number | boolean | ReadonlyArray<AttributeValue> | null

/** One span as received. */
export interface ReceivedSpan {
  readonly service: string | undefined
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId: string | undefined
  readonly name: string
  /** OTLP's span kind number: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  readonly kind: number
  readonly attributes: Readonly<Record<string, AttributeValue>>
  readonly events: ReadonlyArray<{ readonly name: string; readonly attributes: Readonly<Record<string, AttributeValue>> }>
  readonly links: ReadonlyArray<{ readonly traceId: string; readonly spanId: string }>
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  readonly status: number
}

/** One data point of a metric as received (a sum, gauge or histogram point). */
export interface ReceivedPoint {
  readonly service: string | undefined
  readonly name: string
  readonly type: "sum" | "gauge" | "histogram"
  readonly attributes: Readonly<Record<string, AttributeValue>>
  /** The value of a sum or gauge point, the count of a histogram point. */
  readonly value: number
  /** A histogram point's sum. */
  readonly sum?: number
}

/** One log record as received. */
export interface ReceivedLog {
  readonly service: string | undefined
  readonly body: AttributeValue
  readonly severityText: string | undefined
  readonly traceId: string | undefined
  readonly spanId: string | undefined
  readonly attributes: Readonly<Record<string, AttributeValue>>
}

/** A running receiver. */
export interface OtlpReceiver {
  /** Base URL to give an exporter (`OTEL_EXPORTER_OTLP_ENDPOINT`): `http://127.0.0.1:<port>`. */
  readonly url: string
  readonly spans: () => ReadonlyArray<ReceivedSpan>
  /** Every metric point received, in order (with cumulative export, the last one of a series is the latest). */
  readonly points: () => ReadonlyArray<ReceivedPoint>
  readonly logs: () => ReadonlyArray<ReceivedLog>
  /** Requests received per path, with the headers of the last one (to check `OTEL_EXPORTER_OTLP_HEADERS`). */
  readonly requests: () => ReadonlyArray<{ readonly path: string; readonly headers: Readonly<Record<string, string | undefined>> }>
  /** Resolves once `check` holds for what was received, polling every 20 ms; rejects after `timeoutMs`. */
  readonly until: <A>(check: () => A | undefined, timeoutMs?: number) => Promise<A>
  readonly close: () => Promise<void>
}

interface KeyValue {
  readonly key: string
  readonly value?: AnyValue
}

interface AnyValue {
  readonly stringValue?: string
  readonly boolValue?: boolean
  readonly intValue?: string | number
  readonly doubleValue?: number
  readonly arrayValue?: { readonly values?: ReadonlyArray<AnyValue> }
}

const valueOf = (v: AnyValue | undefined): AttributeValue => {
  if (v === undefined) return null
  if (v.stringValue !== undefined) return v.stringValue
  if (v.boolValue !== undefined) return v.boolValue
  if (v.intValue !== undefined) return Number(v.intValue)
  if (v.doubleValue !== undefined) return v.doubleValue
  if (v.arrayValue !== undefined) return (v.arrayValue.values ?? []).map(valueOf)
  return null
}

const attributesOf = (kvs: ReadonlyArray<KeyValue> | undefined): Record<string, AttributeValue> =>
  Object.fromEntries((kvs ?? []).map((kv) => [kv.key, valueOf(kv.value)]))

const serviceOf = (resource: { readonly attributes?: ReadonlyArray<KeyValue> } | undefined): string | undefined => {
  const name = attributesOf(resource?.attributes)["service.name"]
  return typeof name === "string" ? name : undefined
}

/** OTLP JSON carries ids as hex; an empty id means none. */
const idOf = (id: unknown): string | undefined => (typeof id === "string" && id !== "" ? id : undefined)

// deno-lint-ignore no-explicit-any
type Json = any

const decodeTraces = (body: Json): Array<ReceivedSpan> =>
  (body.resourceSpans as Array<Json>).flatMap((rs) =>
    (rs.scopeSpans as Array<Json>).flatMap((ss) =>
      (ss.spans as Array<Json>).map((s): ReceivedSpan => ({
        service: serviceOf(rs.resource),
        traceId: s.traceId,
        spanId: s.spanId,
        parentSpanId: idOf(s.parentSpanId),
        name: s.name,
        kind: s.kind,
        attributes: attributesOf(s.attributes),
        events: ((s.events ?? []) as Array<Json>).map((e) => ({ name: e.name, attributes: attributesOf(e.attributes) })),
        links: ((s.links ?? []) as Array<Json>).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
        status: s.status?.code ?? 0
      }))))

const numberOf = (point: Json): number => Number(point.asInt ?? point.asDouble ?? 0)

const decodeMetrics = (body: Json): Array<ReceivedPoint> =>
  (body.resourceMetrics as Array<Json>).flatMap((rm) =>
    (rm.scopeMetrics as Array<Json>).flatMap((sm) =>
      (sm.metrics as Array<Json>).flatMap((m): Array<ReceivedPoint> => {
        const service = serviceOf(rm.resource)
        if (m.sum !== undefined) {
          return (m.sum.dataPoints as Array<Json>).map((p) => ({ service, name: m.name, type: "sum", attributes: attributesOf(p.attributes), value: numberOf(p) }))
        }
        if (m.gauge !== undefined) {
          return (m.gauge.dataPoints as Array<Json>).map((p) => ({ service, name: m.name, type: "gauge", attributes: attributesOf(p.attributes), value: numberOf(p) }))
        }
        if (m.histogram !== undefined) {
          return (m.histogram.dataPoints as Array<Json>).map((p) => ({
            service,
            name: m.name,
            type: "histogram",
            attributes: attributesOf(p.attributes),
            value: Number(p.count),
            sum: Number(p.sum)
          }))
        }
        return []
      })))

const decodeLogs = (body: Json): Array<ReceivedLog> =>
  (body.resourceLogs as Array<Json>).flatMap((rl) =>
    (rl.scopeLogs as Array<Json>).flatMap((sl) =>
      (sl.logRecords as Array<Json>).map((r): ReceivedLog => ({
        service: serviceOf(rl.resource),
        body: valueOf(r.body),
        severityText: r.severityText,
        traceId: idOf(r.traceId),
        spanId: idOf(r.spanId),
        attributes: attributesOf(r.attributes)
      }))))

const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    request.on("data", (c: Buffer) => chunks.push(c))
    request.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    request.once("error", reject)
  })

/** Starts a receiver on 127.0.0.1 at a free port. */
export const startOtlpReceiver = async (): Promise<OtlpReceiver> => {
  const spans: Array<ReceivedSpan> = []
  const points: Array<ReceivedPoint> = []
  const logs: Array<ReceivedLog> = []
  const requests: Array<{ path: string; headers: Record<string, string | undefined> }> = []
  const answer = (response: ServerResponse, status: number, body: string) => {
    response.writeHead(status, { "content-type": "application/json" })
    response.end(body)
  }
  const server = createServer((request, response) => {
    void readBody(request).then((text) => {
      const path = request.url ?? ""
      requests.push({ path, headers: { ...request.headers } as Record<string, string | undefined> })
      if (request.method !== "POST" || !["/v1/traces", "/v1/metrics", "/v1/logs"].includes(path)) return answer(response, 404, "{}")
      if (!(request.headers["content-type"] ?? "").startsWith("application/json")) return answer(response, 415, "{}")
      try {
        const body = JSON.parse(text)
        if (path === "/v1/traces") spans.push(...decodeTraces(body))
        else if (path === "/v1/metrics") points.push(...decodeMetrics(body))
        else logs.push(...decodeLogs(body))
      } catch (e) {
        return answer(response, 400, JSON.stringify({ error: String(e) }))
      }
      answer(response, 200, "{}")
    }, () => answer(response, 400, "{}"))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => spans,
    points: () => points,
    logs: () => logs,
    requests: () => requests,
    until: async (check, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const found = check()
        if (found !== undefined && found !== false) return found
        if (Date.now() > deadline) throw new Error(`the OTLP receiver did not get what was expected within ${timeoutMs} ms`)
        await new Promise((r) => setTimeout(r, 20))
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.()
        server.close(() => resolve())
      })
  }
}
