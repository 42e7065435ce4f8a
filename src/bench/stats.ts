/**
 * Latency figures of a load run: nearest-rank percentiles and a log-scale histogram.
 *
 * @module
 */

/** Latency percentiles in milliseconds (two decimals). */
export interface LatencySummary {
  readonly count: number
  readonly min: number
  readonly mean: number
  readonly p50: number
  readonly p90: number
  readonly p99: number
  readonly max: number
}

/** `counts[i]` answers took from `edgesMs[i]` up to (not including) `edgesMs[i + 1]`; the last bucket includes the max. */
export interface Histogram {
  readonly edgesMs: ReadonlyArray<number>
  readonly counts: ReadonlyArray<number>
}

const round2 = (x: number) => Math.round(x * 100) / 100

/** The `p`-quantile (0..1) of ascending `sorted`, nearest rank. */
export const percentile = (sorted: ArrayLike<number>, p: number): number => {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!
}

const ascending = (xs: ReadonlyArray<number>): Float64Array => Float64Array.from(xs).sort()

/** The summary of `xs` (ms); undefined when empty. */
export const summarize = (xs: ReadonlyArray<number>): LatencySummary | undefined => {
  if (xs.length === 0) return undefined
  const sorted = ascending(xs)
  let sum = 0
  for (const x of sorted) sum += x
  return {
    count: sorted.length,
    min: round2(sorted[0]!),
    mean: round2(sum / sorted.length),
    p50: round2(percentile(sorted, 0.5)),
    p90: round2(percentile(sorted, 0.9)),
    p99: round2(percentile(sorted, 0.99)),
    max: round2(sorted[sorted.length - 1]!)
  }
}

/** Rounds to three significant digits. */
const nice = (x: number): number => {
  if (x <= 0) return 0
  const scale = 10 ** (Math.floor(Math.log10(x)) - 2)
  return Math.round(x / scale) * scale
}

/** A histogram of `xs` (ms) in up to `buckets` log-spaced buckets from the min to the max. */
export const histogram = (xs: ReadonlyArray<number>, buckets = 12): Histogram => {
  if (xs.length === 0) return { edgesMs: [], counts: [] }
  const sorted = ascending(xs)
  const lo = Math.max(sorted[0]!, 0.001)
  const hi = sorted[sorted.length - 1]!
  const edges: Array<number> = [nice(lo)]
  for (let i = 1; i <= buckets; i++) {
    const edge = nice(lo * (hi / lo) ** (i / buckets))
    if (edge > edges[edges.length - 1]!) edges.push(edge)
  }
  if (edges.length === 1) edges.push(nice(hi) > edges[0]! ? nice(hi) : edges[0]! + 0.01)
  edges[0] = Math.min(edges[0]!, sorted[0]!)
  edges[edges.length - 1] = Math.max(edges[edges.length - 1]!, hi)
  const counts = new Array<number>(edges.length - 1).fill(0)
  let bucket = 0
  for (const x of sorted) {
    while (bucket < counts.length - 1 && x >= edges[bucket + 1]!) bucket++
    counts[bucket]!++
  }
  return { edgesMs: edges.map(round2), counts }
}
