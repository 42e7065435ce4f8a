import type { Artifact } from "../schemas/index.ts"
import { append, emptyLog, logFrom, type AppendLog } from "./internal/append-log.ts"
import { add, emptySet, has, type GrowOnlySet } from "./internal/grow-only-set.ts"

/**
 * One artifact update as the agent sent it, before merging. The flags are optional so that the
 * emitted `artifact-update` event itself can be kept as the chunk: one object per update, not two.
 */
export interface ArtifactChunk {
  readonly artifact: Artifact
  /** Add the parts to the artifact with the same id (created when absent) instead of replacing it. */
  readonly append?: boolean | undefined
  /** The artifact is closed after this chunk (the lifecycle chart refuses further chunks for its id). */
  readonly lastChunk?: boolean | undefined
}

/**
 * A task's artifacts as the ordered log of their chunks, and the ids of those closed by a last chunk.
 *
 * Keeping chunks (not merged artifacts) makes each update O(1) however long an artifact grows; the merge
 * happens once, in {@link toArtifacts}, when someone needs the Task.
 */
export interface ArtifactTable {
  readonly chunks: AppendLog<ArtifactChunk>
  /** Artifacts that take no further chunks: the lifecycle chart reads this fact from each chunk event. */
  readonly closed: GrowOnlySet<string>
}

/** A table with no artifacts. */
export const emptyArtifacts = (): ArtifactTable => ({ chunks: emptyLog(), closed: emptySet() })

/** A table holding already merged artifacts (a stored Task): all open, since the wire Task does not say. */
export const artifactsFrom = (artifacts: ReadonlyArray<Artifact>): ArtifactTable =>
  ({ chunks: logFrom(artifacts.map((artifact) => ({ artifact }))), closed: emptySet() })

/**
 * Adds one chunk in O(1), closing its artifact when `close` says so. Whether the chunk is allowed and
 * whether it closes its artifact are the lifecycle chart's call.
 */
export const addChunk = (table: ArtifactTable, chunk: ArtifactChunk, close = false): ArtifactTable => ({
  chunks: append(table.chunks, chunk),
  closed: close ? add(table.closed, chunk.artifact.artifactId) : table.closed
})

/** Whether an earlier chunk closed the artifact `artifactId`. */
export const isClosed = (table: ArtifactTable, artifactId: string): boolean => has(table.closed, artifactId)

type Mutable<T> = { -readonly [K in keyof T]: T[K] }
type Part = Artifact["parts"][number]

/**
 * The merged artifacts, in order of first appearance. An appending chunk adds its parts to the
 * artifact with its id (creating it when absent); its `name`, `description` and `extensions` replace
 * the earlier ones when given and its `metadata` is merged key by key. Any other chunk replaces the
 * artifact in place. The caller's artifact objects are never mutated.
 */
export const toArtifacts = (table: ArtifactTable): Array<Artifact> => {
  const merged: Array<Artifact> = []
  const parts: Array<Array<Part> | undefined> = [] // our own parts array per merged entry, once copied
  const position = new Map<string, number>()
  for (let i = 0; i < table.chunks.length; i++) {
    const chunk = table.chunks.items[i]!
    const artifact = chunk.artifact
    const at = position.get(artifact.artifactId)
    if (at === undefined) {
      position.set(artifact.artifactId, merged.length)
      merged.push(artifact)
      parts.push(undefined)
    } else if (chunk.append !== true) {
      merged[at] = artifact
      parts[at] = undefined
    } else {
      let own = parts[at]
      const base = merged[at]!
      if (own === undefined) {
        own = base.parts.slice()
        parts[at] = own
      }
      for (const part of artifact.parts) own.push(part)
      merged[at] = mergeFields(base, artifact, own)
    }
  }
  return merged
}

const mergeFields = (base: Artifact, chunk: Artifact, parts: Array<Part>): Artifact => {
  if (
    base.parts === parts && chunk.name === undefined && chunk.description === undefined &&
    chunk.extensions === undefined && chunk.metadata === undefined
  ) return base
  const next: Mutable<Artifact> = { ...base, parts }
  if (chunk.name !== undefined) next.name = chunk.name
  if (chunk.description !== undefined) next.description = chunk.description
  if (chunk.extensions !== undefined) next.extensions = chunk.extensions
  if (chunk.metadata !== undefined) next.metadata = { ...base.metadata, ...chunk.metadata }
  return next
}
