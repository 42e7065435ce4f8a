import { describe, expect, it } from "vitest"
import { contenderSpecs } from "./contender-process.ts"
import { formatTable, workloadNames } from "./report.ts"
import { parseArgs, resultsFileOf, runBench, type Sizes } from "./run.ts"

const tiny: Sizes = {
  rounds: 1,
  oneStreamChunks: 3_000,
  streams: 4,
  streamChunks: 200,
  concurrency: 8,
  throughputMs: 300,
  memoryTasks: 300,
  memoryMaxMs: 5_000,
  ttlMs: 200,
  warmup: false,
  taskWarmupMs: 0
}

describe("the bench in a tiny configuration", () => {
  it("writes well-formed rows for every workload and refuses a contender that drops an event", async () => {
    const specs = contenderSpecs({ ttlMs: tiny.ttlMs, logWindow: 4_096, rawDrop: 7 })
      .filter((s) => s.contender.startsWith("raw-node") || s.contender === "a2a-js-v1" || (s.contender === "a2a-actors" && s.runtime === "node"))
    const rows = await runBench({ sizes: tiny, specs, log: () => {} })

    for (const row of rows) {
      expect(workloadNames).toContain(row.workload)
      expect(["a2a-actors", "a2a-js-v1", "raw-node", "raw-node-batched"]).toContain(row.contender)
      expect(typeof row.value).toBe("number")
      expect(typeof row.unit).toBe("string")
      expect(typeof row.valid).toBe("boolean")
    }
    const find = (workload: string, contender: string, metric: string, protocol = "0.3") =>
      rows.find((r) => r.workload === workload && r.contender === contender && r.metric === metric && r.protocol === protocol)

    // The A2A 1.0 rows: this project on one stream and task throughput, the SDK 1.3 on task throughput, all checked.
    const v1 = rows.filter((r) => r.protocol === "1.0")
    expect(new Set(v1.map((r) => `${r.contender} ${r.workload}`))).toEqual(new Set([
      "a2a-actors one-stream", "a2a-actors task-throughput", "a2a-js-v1 task-throughput"
    ]))
    expect(find("one-stream", "a2a-actors", "cpu_us_per_event", "1.0")).toMatchObject({ valid: true, unit: "µs" })
    expect(find("task-throughput", "a2a-actors", "cpu_us_per_task", "1.0")).toMatchObject({ valid: true })
    expect(find("task-throughput", "a2a-js-v1", "tasks_per_s", "1.0")).toMatchObject({ valid: true, vs_a2a_js_v1: 1 })
    expect(find("task-throughput", "a2a-actors", "tasks_per_s", "1.0")?.vs_a2a_js_v1).toBeTypeOf("number")
    expect(formatTable(rows)).toContain("== A2A 1.0 vs 0.3, a2a-actors (node)")

    for (const contender of ["a2a-actors", "raw-node-batched"]) {
      expect(find("one-stream", contender, "events_per_s")).toMatchObject({ valid: true, unit: "events/s", runtime: "node" })
      expect(find("many-streams", contender, "events_per_s")).toMatchObject({ valid: true })
      expect(find("many-streams", contender, "events_per_s")?.p99_ms).toBeTypeOf("number")
      expect(find("task-throughput", contender, "tasks_per_s")).toMatchObject({ valid: true, unit: "tasks/s" })
      // The server's own CPU per unit of work, read from its process.
      for (const [workload, metric] of [["one-stream", "cpu_us_per_event"], ["many-streams", "cpu_us_per_event"], ["task-throughput", "cpu_us_per_task"]] as const) {
        expect(find(workload, contender, metric)).toMatchObject({ valid: true, unit: "µs" })
        expect(find(workload, contender, metric)?.value).toBeGreaterThan(0)
      }
      expect(find("memory", contender, "rss_mb")).toMatchObject({ valid: true, unit: "MB" })
      for (const metric of ["heap_idle_mb", "heap_after_ttl_mb"]) {
        expect(find("memory", contender, metric)).toMatchObject({ valid: true, unit: "MB" })
        expect(find("memory", contender, metric)?.value).toBeGreaterThan(0)
      }
    }
    expect(find("one-stream", "a2a-actors", "events_per_s")?.vs_raw_batched).toBeTypeOf("number")
    expect(find("task-throughput", "a2a-actors", "cpu_us_per_task")?.vs_raw_batched).toBeTypeOf("number")

    // raw-node was told to leave out chunk 7: its stream figures must not count.
    for (const workload of ["one-stream", "many-streams"]) {
      const row = find(workload, "raw-node", "events_per_s")
      expect(row).toMatchObject({ valid: false, value: 0 })
      expect(row?.error).toMatch(/chunk 7 expected/)
      expect(row?.vs_raw_batched).toBeUndefined()
    }
    expect(find("task-throughput", "raw-node", "tasks_per_s")?.valid).toBe(true)
  }, 90_000)
})

describe("where a run's figures go", () => {
  const fileOf = (...argv: Array<string>) => resultsFileOf(parseArgs(argv))

  it("only a full run of everything replaces latest.json", () => {
    expect(fileOf()).toBe("latest.json")
    expect(fileOf("--quick")).toBe("quick.json")
    expect(fileOf("--quick", "--only", "a2a-js")).toBe("quick.json")
    expect(fileOf("--only", "a2a-actors:node")).toBe("partial.json")
    expect(fileOf("--only", "a2a-actors:node:1.0")).toBe("partial.json")
    expect(fileOf("--workload", "memory")).toBe("partial.json")
    expect(fileOf("--profile", "a2a-actors:node")).toBe("partial.json")
    expect(fileOf("--log-window", "default")).toBe("partial.json")
  })
})
