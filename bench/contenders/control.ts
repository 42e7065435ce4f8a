/**
 * The control channel every contender process speaks with the bench runner, the same on Node, Bun
 * and Deno: the process prints `{"ready":true,"url":...}` as one stdout line once it listens, then
 * answers `rss` lines on stdin with `{"rss":<bytes>,"heap":<bytes used>,"gc":<bool>}` after collecting garbage where
 * the runtime lets it. Memory is read in-process so every contender is measured the same way.
 */
import process from "node:process"

declare const Bun: { gc(force: boolean): void } | undefined

/**
 * Forces a full, memory-reducing collection when the runtime exposes one; says whether it did.
 *
 * On V8 (Node, Deno) a plain `gc()` frees objects but keeps the emptied heap pages pooled and resident:
 * after a burst of 20,000 tasks a Node 24 server's heap fell from 160 MB to 35 MB while its RSS stayed at
 * 330 MB. V8 hands those pages back in a memory-reducing ("last-resort") collection, the one it runs
 * itself under memory pressure, so that is the collection asked for here, of every contender alike:
 * what is then resident is what the program holds.
 */
const collect = (): boolean => {
  if (typeof Bun !== "undefined") {
    Bun.gc(true)
    return true
  }
  const gc = (globalThis as { gc?: (options?: { type: string; execution: string; flavor: string }) => void }).gc
  if (typeof gc === "function") {
    gc({ type: "major", execution: "sync", flavor: "last-resort" })
    return true
  }
  return false
}

/** The value of `--name value` in this process's arguments. */
export const argValue = (name: string): string | undefined => {
  const argv = process.argv
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? argv[i + 1] : undefined
}

/** Whether `--name` is among this process's arguments. */
export const hasFlag = (name: string): boolean => process.argv.includes(`--${name}`)

/** Announces the URL and serves control commands until the process is killed. */
export const announce = (url: string): void => {
  let pending = ""
  process.stdin.setEncoding("utf8")
  process.stdin.on("data", (data: string) => {
    pending += data
    for (let nl = pending.indexOf("\n"); nl >= 0; nl = pending.indexOf("\n")) {
      const command = pending.slice(0, nl).trim()
      pending = pending.slice(nl + 1)
      if (command === "rss") {
        const gc = collect()
        // A collection returns pages lazily on some runtimes; give it a tick before reading.
        setTimeout(() => {
          const usage = process.memoryUsage()
          process.stdout.write(`${JSON.stringify({ rss: usage.rss, heap: usage.heapUsed, gc })}\n`)
        }, 50)
      } else if (command === "exit") {
        process.exit(0)
      }
    }
  })
  process.stdout.write(`${JSON.stringify({ ready: true, url })}\n`)
}

/** How many artifact chunks a request asks for: the text of its message (0 = complete at once). */
export const chunksWanted = (text: string | undefined): number => {
  const n = Number.parseInt(text ?? "0", 10)
  return Number.isFinite(n) && n > 0 ? n : 0
}
