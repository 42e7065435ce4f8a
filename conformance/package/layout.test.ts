/**
 * The layout stays readable: the task runtime and the PostgreSQL store keep one concept per file, so no
 * source file of theirs grows past 500 lines (the size at which a file is split, see docs/layout.md), and
 * the cluster's parts (routing to other instances, leases and rescue, stored streams) live apart from
 * local hosting.
 */
import { readdir, readFile } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../../", import.meta.url))

const sources = async (dir: string): Promise<Array<string>> => {
  const out: Array<string> = []
  for (const entry of await readdir(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`
    if (entry.isDirectory()) out.push(...await sources(path))
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) out.push(path)
  }
  return out
}

describe("layout", () => {
  it("keeps every source file of the runtime and the PostgreSQL store under 500 lines", async () => {
    const files = [...await sources("src/runtime"), ...await sources("src/store")]
    const sizes = await Promise.all(files.map(async (f) => ({ f, lines: (await readFile(join(root, f), "utf8")).split("\n").length })))
    expect(sizes.filter((s) => s.lines > 500)).toEqual([])
  })

  it("keeps the cluster's parts apart from local hosting", async () => {
    const hosting = await readFile(join(root, "src/runtime/hosting.ts"), "utf8")
    expect(hosting).not.toMatch(/from "\.\/cluster\//)
    expect((await sources("src/runtime/cluster")).length).toBeGreaterThanOrEqual(3)
  })
})
