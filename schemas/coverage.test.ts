import { existsSync, readFileSync } from "node:fs"
import { resolve } from "node:path"
import { Schema, SchemaAST } from "effect"
import { describe, expect, it } from "vitest"
import * as schemas from "./index.ts"

const upstreamDir = resolve(process.cwd(), "../shared/a2a-0.3.0")
const upstreamFile = resolve(upstreamDir, "a2a.schema.json")
const present = existsSync(upstreamFile)
const absentNote = present ? "" : ` (skipped: the pinned upstream folder ${upstreamDir} is absent)`

// No exclusions: every upstream definition has a schema of the same name.
const exclusions: ReadonlyMap<string, string> = new Map()

describe.skipIf(!present)(
  `every upstream A2A 0.3.0 definition has a schema${absentNote}`,
  () => {
    const definitions = present
      ? Object.keys((JSON.parse(readFileSync(upstreamFile, "utf8")) as { definitions: object }).definitions)
      : []
    const exported = schemas as Record<string, unknown>

    it("reads the 93 pinned definitions", () => {
      expect(definitions).toHaveLength(93)
    })

    it.each(definitions.filter((name) => !exclusions.has(name)))("%s is exported as an Effect Schema", (name) => {
      const candidate = exported[name]
      expect(Schema.isSchema(candidate), `schemas/index.ts has no Schema named ${name}`).toBe(true)
    })

    it.each(definitions.filter((name) => !exclusions.has(name)))("%s names itself in decode errors", (name) => {
      const schema = exported[name] as Schema.Top
      expect(SchemaAST.resolveIdentifier(schema.ast)).toBe(name)
    })
  }
)
