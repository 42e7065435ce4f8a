/**
 * Micro-benchmark of the task lifecycle machine alone: how many steps a CPU second `start`, `step` and
 * `restore` take, with no runtime, log or store around them. Rounds are interleaved and the median is
 * reported, since the machine this runs on is shared.
 *
 * It runs as compiled JavaScript (see compiled.ts).
 *
 * Usage:
 *   npx tsx bench/machine-step.ts                      print the table
 *   npx tsx bench/machine-step.ts --label after        also record the medians under that label in
 *                                                      bench/results/machine-step.json
 *   npx tsx bench/machine-step.ts --rounds 9 --ms 400  more or longer rounds
 */
import { readFileSync, writeFileSync } from "node:fs"
import { initialTransition, transition } from "xstate"
import {
  restore,
  start,
  step,
  taskMachine,
  taskOf,
  type TaskChartEvent,
  type TaskEvent,
  type TaskInput,
  type TaskSnapshot
} from "../machines/task.ts"
import type { Message } from "../schemas/index.ts"
import { resultsDir, runCompiled } from "./compiled.ts"

runCompiled(import.meta.url)

const arg = (name: string): string | undefined => {
  const at = process.argv.indexOf(`--${name}`)
  return at === -1 ? undefined : process.argv[at + 1]
}
const rounds = Number(arg("rounds") ?? 7)
const roundMs = Number(arg("ms") ?? 250)
const label = arg("label")

const T = "2026-01-01T00:00:00.000Z"
const message = (role: "user" | "agent", text: string): Message => ({
  kind: "message", role, messageId: text, parts: [{ kind: "text", text }]
})
const inputOf = (i: number): TaskInput => ({ id: `t-${i}`, contextId: `c-${i}`, timestamp: T, message: message("user", "hi") })

const accepted = (snapshot: TaskSnapshot, event: TaskEvent): TaskSnapshot => {
  const r = step(snapshot, event)
  if (!r.accepted) throw new Error(`refused: ${r.refusal.message}`)
  return r.snapshot
}
const working = () => accepted(start(inputOf(0)), { type: "status", timestamp: T })

/** One case: `run(n)` does n operations and returns something derived from them (kept, so none is skipped). */
interface Case {
  readonly name: string
  readonly what: string
  readonly run: (n: number) => unknown
}

const chunkEvent: TaskEvent = { type: "artifact", artifact: { artifactId: "a", parts: [{ kind: "text", text: "x" }] }, append: true }
const chunkFacts: TaskChartEvent = { type: "artifact", closed: false, last: false }
const progress: TaskEvent = { type: "status", timestamp: T }
const complete: TaskEvent = { type: "complete", timestamp: T, message: message("agent", "done") }
const ask: TaskEvent = { type: "requestInput", timestamp: T, message: message("agent", "which?") }
const answer: TaskEvent = { type: "resume", timestamp: T, message: message("user", "this") }
const stored = taskOf(accepted(accepted(working(), chunkEvent), progress))

const cases: ReadonlyArray<Case> = [
  {
    name: "new task",
    what: "start and the first event (submitted to working)",
    run: (n) => {
      let last: TaskSnapshot | undefined
      for (let i = 0; i < n; i++) last = accepted(start(inputOf(i)), progress)
      return last
    }
  },
  {
    name: "artifact chunk",
    what: "one streamed chunk appended to a working task (10,000 per task)",
    run: (n) => {
      let s = working()
      for (let i = 0; i < n; i++) {
        if (i % 10_000 === 0) s = working()
        s = accepted(s, chunkEvent)
      }
      return s
    }
  },
  {
    name: "status (progress)",
    what: "a progress update: working to working, one status-update",
    run: (n) => {
      let s = working()
      for (let i = 0; i < n; i++) {
        if (i % 10_000 === 0) s = working()
        s = accepted(s, progress)
      }
      return s
    }
  },
  {
    name: "status (change)",
    what: "a change of state: working to input-required and back (per step)",
    run: (n) => {
      let s = working()
      for (let i = 0; i < n; i++) {
        if (i % 10_000 === 0) s = working()
        s = accepted(s, i % 2 === 0 ? ask : answer)
      }
      return s
    }
  },
  {
    name: "short task",
    what: "start, working, one chunk, completed (per task)",
    run: (n) => {
      let last: TaskSnapshot | undefined
      for (let i = 0; i < n; i++) {
        last = accepted(accepted(accepted(start(inputOf(i)), progress), chunkEvent), complete)
      }
      return last
    }
  },
  {
    name: "restore",
    what: "a stored working Task (one artifact) back to a snapshot",
    run: (n) => {
      let last: TaskSnapshot | undefined
      for (let i = 0; i < n; i++) last = restore(stored)
      return last
    }
  },
  // For comparison, XState's documented pure functions on the same chart: each call builds a throwaway
  // actor (and its initial snapshot) to compute one step, which is why the chart is compiled into a table
  // with them once instead of being interpreted per event.
  {
    name: "ref: initialTransition()",
    what: "XState's pure initial transition of the task machine",
    run: (n) => {
      let last: unknown
      for (let i = 0; i < n; i++) last = initialTransition(taskMachine)
      return last
    }
  },
  {
    name: "ref: transition() chunk",
    what: "XState's pure transition of the task machine for one artifact chunk",
    run: (n) => {
      const machine = working().lifecycle
      let last: unknown
      for (let i = 0; i < n; i++) last = transition(taskMachine, machine, chunkFacts)
      return last
    }
  }
]

/**
 * Process CPU time in ms. The machine is shared: other processes stretch wall time by whatever they run,
 * CPU time far less (it still counts this process's own GC threads, which are part of the cost).
 */
const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

/** Operations per CPU second, over one round of about `roundMs` of CPU time. */
const measure = (c: Case): number => {
  let n = 256
  let done = 0
  let elapsed = 0
  while (elapsed < roundMs) {
    const t0 = cpuMs()
    c.run(n)
    elapsed += cpuMs() - t0
    done += n
    n = Math.min(n * 2, 1 << 16)
  }
  return done / (elapsed / 1000)
}

const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

for (const c of cases) measure(c) // warm-up
const samples = new Map<string, Array<number>>(cases.map((c) => [c.name, []]))
for (let r = 0; r < rounds; r++) for (const c of cases) samples.get(c.name)!.push(measure(c))

const rows = cases.map((c) => {
  const xs = samples.get(c.name)!
  const ops = median(xs)
  return { case: c.name, what: c.what, steps_per_s: Math.round(ops), us_per_step: Math.round(1e7 / ops) / 10, rounds: xs.map(Math.round) }
})
console.log(`machine step, median of ${rounds} rounds of ~${roundMs} ms of CPU time (node ${process.version})`)
console.table(rows.map(({ case: name, steps_per_s, us_per_step }) => ({ case: name, "steps/s": steps_per_s, "us/step": us_per_step })))

if (label !== undefined) {
  const file = `${resultsDir}machine-step.json`
  let all: Record<string, unknown> = {}
  try {
    all = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>
  } catch {
    // first run: a new file
  }
  all[label] = { node: process.version, rounds, roundMs, rows }
  writeFileSync(file, JSON.stringify(all, null, 2) + "\n")
  console.log(`recorded as '${label}' in ${file}`)
}
