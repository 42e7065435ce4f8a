import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { defaultUpstreamDir, isCi, locateUpstreamSchema, SCHEMA_DIR_VARIABLE, upstreamSchema } from "./upstream-schema.ts"

// The one place where an absent upstream folder fails a CI run; elsewhere the tests that need it skip.
describe("the pinned upstream A2A 0.3.0 schema", () => {
  it("is beside the project for the tests that check against it", (context) => {
    if (upstreamSchema.present) {
      expect(existsSync(upstreamSchema.schemaFile) && existsSync(upstreamSchema.specFile)).toBe(true)
      return
    }
    if (!isCi()) context.skip(upstreamSchema.reason)
    throw new Error(
      `${upstreamSchema.reason}. CI runs must check the project against it: put the folder at ${upstreamSchema.dir} ` +
        `or point ${SCHEMA_DIR_VARIABLE} at it.`
    )
  })
})

describe("locating the upstream folder", () => {
  it("looks beside the project unless A2A_SCHEMA_DIR names another folder", () => {
    const copy = mkdtempSync(path.join(tmpdir(), "a2a-upstream-"))
    try {
      expect(locateUpstreamSchema({ [SCHEMA_DIR_VARIABLE]: copy })).toMatchObject({ present: false, dir: copy })
      writeFileSync(path.join(copy, "a2a.schema.json"), "{}")
      writeFileSync(path.join(copy, "specification.md"), "")
      expect(locateUpstreamSchema({ [SCHEMA_DIR_VARIABLE]: copy })).toEqual({
        present: true,
        dir: copy,
        schemaFile: path.join(copy, "a2a.schema.json"),
        specFile: path.join(copy, "specification.md")
      })
    } finally {
      rmSync(copy, { recursive: true, force: true })
    }
    expect(locateUpstreamSchema({}).dir).toBe(defaultUpstreamDir)
    expect(defaultUpstreamDir.endsWith(path.join("shared", "a2a-0.3.0"))).toBe(true)
  })

  it("says which folder it looked in and how to point it elsewhere", () => {
    const absent = locateUpstreamSchema({ [SCHEMA_DIR_VARIABLE]: "/nonexistent/a2a" })
    expect(absent.present).toBe(false)
    if (absent.present) return
    expect(absent.reason).toContain("/nonexistent/a2a")
    expect(absent.reason).toContain(SCHEMA_DIR_VARIABLE)
  })

  it("treats CI=true (and any value but empty, 0 or false) as a CI run", () => {
    expect([undefined, "", "0", "false", "FALSE"].map((CI) => isCi({ CI }))).toEqual([false, false, false, false, false])
    expect(["true", "1", "yes"].map((CI) => isCi({ CI }))).toEqual([true, true, true])
  })
})
