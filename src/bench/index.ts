/**
 * Load testing an A2A agent: `benchmark(url, options)`, the engine of `a2a bench`, and its results.
 *
 * @module
 */
export {
  BenchOptionError,
  type BenchPlan,
  type BenchProgress,
  BenchRefusedError,
  BenchTargetError,
  benchLimits,
  benchmark,
  type BenchmarkOptions,
  type BenchWorkload,
  benchWorkloads
} from "./benchmark.ts"
export type { MessageTemplate } from "./load-client.ts"
export type { HostResolver } from "./loopback.ts"
export type { BenchTransport } from "./outcome.ts"
export {
  BENCH_RESULT_FORMAT,
  type BenchResult,
  type ComparedFigure,
  compareResults,
  drawHistogram,
  formatComparison,
  formatResult,
  isBenchResult
} from "./result.ts"
export type { Histogram, LatencySummary } from "./stats.ts"
