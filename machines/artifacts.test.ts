import { describe, expect, it } from "vitest"
import type { Artifact } from "../schemas/index.ts"
import { addChunk, artifactsFrom, emptyArtifacts, toArtifacts, type ArtifactTable } from "./artifacts.ts"

const text = (t: string) => ({ kind: "text", text: t }) as const
const art = (artifactId: string, ...texts: Array<string>): Artifact => ({ artifactId, parts: texts.map(text) })
const add = (table: ArtifactTable, artifact: Artifact, append = false, lastChunk = false) =>
  addChunk(table, { artifact, append, lastChunk })

describe("artifact merge", () => {
  it("appends parts to the artifact with the same id", () => {
    const t = add(add(emptyArtifacts(), art("a", "1")), art("a", "2", "3"), true)
    expect(toArtifacts(t)).toEqual([art("a", "1", "2", "3")])
  })

  it("creates the artifact when an append names a missing id", () => {
    expect(toArtifacts(add(emptyArtifacts(), art("a", "1"), true))).toEqual([art("a", "1")])
  })

  it("replaces an artifact in its original position when append is not set", () => {
    const t = add(add(add(emptyArtifacts(), art("a", "1")), art("b", "1")), { ...art("a", "new"), name: "A" })
    expect(toArtifacts(t)).toEqual([{ artifactId: "a", name: "A", parts: [text("new")] }, art("b", "1")])
  })

  it("lets an appended chunk update name, description, extensions and merge metadata", () => {
    const first: Artifact = { ...art("a", "1"), name: "draft", metadata: { x: 1, y: 1 } }
    const next: Artifact = { ...art("a", "2"), name: "final", description: "d", extensions: ["urn:e"], metadata: { y: 2 } }
    expect(toArtifacts(add(add(emptyArtifacts(), first), next, true))).toEqual([
      { artifactId: "a", name: "final", description: "d", extensions: ["urn:e"], metadata: { x: 1, y: 2 }, parts: [text("1"), text("2")] }
    ])
  })

  it("never mutates the artifacts it was given", () => {
    const first = art("a", "1")
    toArtifacts(add(add(emptyArtifacts(), first), art("a", "2"), true))
    expect(first).toEqual(art("a", "1"))
  })

  it("keeps branches apart when an older table is extended twice", () => {
    const base = add(emptyArtifacts(), art("a", "1"))
    const left = add(base, art("a", "L"), true, true)
    const right = add(base, art("a", "R"), true)
    expect(toArtifacts(left)).toEqual([art("a", "1", "L")])
    expect(toArtifacts(right)).toEqual([art("a", "1", "R")])
    expect(toArtifacts(base)).toEqual([art("a", "1")])
  })

  it("holds the merged artifacts of a stored task as they are", () => {
    const t = artifactsFrom([art("a", "1"), art("b", "2")])
    expect(toArtifacts(t)).toEqual([art("a", "1"), art("b", "2")])
  })

  it("merges a long append stream into one artifact with every part in order", () => {
    let t = emptyArtifacts()
    for (let i = 0; i < 10_000; i++) t = add(t, art("s", String(i)), true)
    const [merged] = toArtifacts(t)
    expect(merged?.parts).toHaveLength(10_000)
    expect(merged?.parts[9_999]).toEqual(text("9999"))
  })
})
