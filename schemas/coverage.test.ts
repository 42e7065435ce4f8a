import { Schema, SchemaAST } from "effect"
import { describe, expect, it } from "vitest"
import { upstreamDefinitionNames } from "../conformance/upstream-definitions.ts"
import { readUpstreamSchema, requireUpstreamSchema } from "../conformance/upstream-schema.ts"
import * as schemas from "./index.ts"

// No exclusions: every upstream definition has a schema of the same name.
const exclusions: ReadonlyMap<string, string> = new Map()

describe(
  "every upstream A2A 0.3.0 definition has a schema",
  () => {
    requireUpstreamSchema()
    // Generated from the pinned list, so the same tests exist (skipped) where the upstream folder is absent.
    const definitions = upstreamDefinitionNames
    const exported = schemas as Record<string, unknown>

    it("reads the 93 pinned definitions", () => {
      expect(Object.keys(readUpstreamSchema().definitions)).toEqual(definitions)
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
