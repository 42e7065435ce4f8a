/**
 * What a finished task leaves to the garbage collector. A task's objects die young: nothing reaches them once
 * its send is answered, so a young collection should copy almost none of them. Objects that get a hidden
 * class of their own (an object literal with getters, a generator function made per call) break that: the
 * hidden class lives in the old generation and keeps them alive until the next full collection, so every
 * task was promoted whole (about 6-9 KB each). Measured from V8's own trace of its collections, in a
 * process of its own.
 */
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const script = fileURLToPath(new URL("../../testing/runtime/promoted-per-task.ts", import.meta.url))
const sends = 20_000

/** Bytes V8 promoted to the old generation per send, over the measured sends. */
const promotedPerSend = (): number => {
  const run = spawnSync(process.execPath, ["--trace-gc-nvp", "--import", "tsx", script, String(sends)], {
    encoding: "utf8",
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024
  })
  expect(run.status, run.stderr).toBe(0)
  const lines = run.stdout.split("\n")
  const start = lines.indexOf("measure-start")
  const end = lines.indexOf("measure-end")
  expect(start).toBeGreaterThan(-1)
  expect(end).toBeGreaterThan(start)
  let promoted = 0
  let collections = 0
  for (const line of lines.slice(start + 1, end)) {
    const m = / gc=s .* promoted=(\d+) /.exec(line)
    if (m === null) continue
    collections++
    promoted += Number(m[1])
  }
  // Enough allocation for several young collections, or the figure says nothing.
  expect(collections).toBeGreaterThanOrEqual(3)
  return promoted / sends
}

describe("a finished task's objects die young", () => {
  it("an Effect agent's task is not promoted", () => {
    expect(promotedPerSend()).toBeLessThan(2_500)
  }, 150_000)
})
