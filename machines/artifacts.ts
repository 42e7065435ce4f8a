import type { Artifact } from "../schemas/index.ts"
import { append, emptyLog, type AppendLog } from "./internal/append-log.ts"

/**
 * One artifact update as the agent sent it, before merging. The flags are optional so that the
 * emitted `artifact-update` event itself can be kept as the chunk: one object per update, not two.
 */
export interface ArtifactChunk {
  readonly artifact: Artifact
  /** Add the parts to the artifact with the same id (created when absent) instead of replacing it. */
  readonly append?: boolean | undefined
  /** The artifact is closed after this chunk: further chunks for its id are refused. */
  readonly lastChunk?: boolean | undefined
}

/**
 * A task's artifacts as the ordered log of their chunks.
 *
 * Keeping chunks (not merged artifacts) makes each update O(1) however long an artifact grows; the merge
 * happens once, in {@link toArtifacts}, when someone needs the Task.
 */
export interface ArtifactTable {
  readonly chunks: AppendLog<ArtifactChunk>
  /**
   * Index of the closing chunk per artifact id. Shared by every table on the same backing array: an
   * entry counts for a table only when it lies below that table's length, because closing is never
   * undone and all those tables hold the same prefix.
   */
  readonly closedAt: Map<string, number>
}

/** A table with no artifacts. */
export const emptyArtifacts = (): ArtifactTable => ({ chunks: emptyLog(), closedAt: new Map() })

/**
 * A table holding already merged artifacts (a stored Task). Closing is not part of the wire Task, so
 * restored artifacts are open.
 */
export const artifactsFrom = (artifacts: ReadonlyArray<Artifact>): ArtifactTable =>
  artifacts.reduce(
    (table, artifact) => addChunk(table, { artifact }),
    emptyArtifacts()
  )

/** Whether a `lastChunk: true` update already closed the artifact `artifactId` in this table. */
export const isClosed = (table: ArtifactTable, artifactId: string): boolean => {
  const at = table.closedAt.get(artifactId)
  return at !== undefined && at < table.chunks.length
}

/** Adds one chunk in O(1); the caller checks {@link isClosed} first (the machine refuses such chunks). */
export const addChunk = (table: ArtifactTable, chunk: ArtifactChunk): ArtifactTable => {
  const chunks = append(table.chunks, chunk)
  // A new backing array means we branched off an older table: its index may name later chunks.
  const closedAt = chunks.items === table.chunks.items ? table.closedAt : indexClosed(chunks)
  if (chunk.lastChunk === true) closedAt.set(chunk.artifact.artifactId, chunks.length - 1)
  return { chunks, closedAt }
}

const indexClosed = (chunks: AppendLog<ArtifactChunk>): Map<string, number> => {
  const closedAt = new Map<string, number>()
  for (let i = 0; i < chunks.length - 1; i++) {
    const chunk = chunks.items[i]!
    if (chunk.lastChunk === true) closedAt.set(chunk.artifact.artifactId, i)
  }
  return closedAt
}

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
