/**
 * Reads Prometheus' text format with an independent parser (`parse-prometheus-text-format`), into samples a
 * test can look up by name and labels.
 *
 * @module
 */
// @ts-expect-error: the parser ships no type declarations; its result is typed below, as its README documents it.
import parsePrometheusTextFormat from "parse-prometheus-text-format"

/** One family as the parser returns it. */
export interface MetricFamily {
  readonly name: string
  readonly help: string
  readonly type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED"
  readonly metrics: ReadonlyArray<{
    readonly value?: string
    readonly labels?: Readonly<Record<string, string>>
    readonly buckets?: Readonly<Record<string, string>>
    readonly count?: string
    readonly sum?: string
  }>
}

/** Parses a scrape; throws when the parser does. */
export const parsePrometheus = (text: string): ReadonlyArray<MetricFamily> =>
  (parsePrometheusTextFormat as (text: string) => ReadonlyArray<MetricFamily>)(text)

/** The family named `name`. */
export const family = (families: ReadonlyArray<MetricFamily>, name: string): MetricFamily | undefined =>
  families.find((f) => f.name === name)

/** The sample of `name` whose labels include `labels`: its value (a histogram's count), or undefined. */
export const sample = (families: ReadonlyArray<MetricFamily>, name: string, labels: Readonly<Record<string, string>> = {}): number | undefined => {
  const metric = family(families, name)?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
  if (metric === undefined) return undefined
  return Number(metric.value ?? metric.count)
}

/**
 * One series of histogram `name` in `text` (the one whose labels include `labels`): its count, sum and
 * buckets as the parser reads them. The parser folds the series of a labelled histogram into one, so the
 * series is parsed alone, its other labels taken off.
 */
export const histogramSeries = (text: string, name: string, labels: Readonly<Record<string, string>>) => {
  const lines = text.split("\n").filter((line) =>
    [`${name}_bucket{`, `${name}_sum{`, `${name}_count{`].some((p) => line.startsWith(p)) &&
    Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
  const alone = lines.map((line) => {
    const open = line.indexOf("{")
    const close = line.lastIndexOf("}")
    const le = /(?:^|,)le="([^"]*)"/.exec(line.slice(open + 1, close))
    return `${line.slice(0, open)}${le === null ? "" : `{le="${le[1]}"}`}${line.slice(close + 1)}`
  })
  const [series] = family(parsePrometheus([`# TYPE ${name} histogram`, ...alone, ""].join("\n")), name)?.metrics ?? []
  return series === undefined
    ? undefined
    : { count: Number(series.count), sum: Number(series.sum), buckets: series.buckets ?? {} }
}
