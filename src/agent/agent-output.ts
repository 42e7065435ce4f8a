/**
 * What an agent hands to its `TaskContext` (messages, parts, artifacts, metadata) is checked here, once,
 * against the wire schemas before it enters a task. The stream serializers then write events with
 * `JSON.stringify` or by hand and never meet a value that is not valid A2A 0.3.0 JSON.
 *
 * Cost is kept where it is due. Text given as a string is wire-valid by construction and skips the check
 * (a stream of text chunks pays nothing). Objects the agent built are copied as plain JSON (so a later
 * change to them cannot reach the task) and validated with the schema, which drops fields it does not
 * know: each part with `Part`, metadata with `Metadata`, a whole Message with `Message`; the envelope we
 * build around them from checked primitives needs no second pass. A refusal is worded by the schema of
 * the whole value, so it names the path from the message or artifact down.
 */
import { Result, Schema, SchemaIssue, Struct } from "effect"
import { Message, Metadata, Part, TaskArtifactUpdateEvent } from "../../schemas/index.ts"
import type { Artifact } from "../../schemas/index.ts"
import { textPart, toAgentMessage, toParts } from "./messages.ts"
import type { MessageInput, PartsInput } from "./messages.ts"
import type { ArtifactOptions } from "./task-context.ts"
import { freshId } from "./fresh-id.ts"

/** An artifact chunk as it enters a task: the task chart's `artifact` event, what the artifact-update will carry. */
export interface ArtifactChunk {
  readonly type: "artifact"
  readonly artifact: Artifact
  readonly append?: boolean
  readonly lastChunk?: boolean
}

/** How deep agent JSON may nest; deeper (or a cycle) is refused. */
const maxDepth = 512

/** Returned by {@link copy} when the value is not JSON; `problem` then says where and why. */
const notJson: unique symbol = Symbol("not JSON")
let problem = ""

/**
 * A deep copy of `value` as JSON would read it back, or {@link notJson} with `problem` naming the first
 * place where it is not JSON: a function, symbol, bigint, non-finite number, `undefined` in an array, a
 * non-plain object (Date, Map, class instance), a cycle. An `undefined` object property is left out, as
 * `JSON.stringify` does. The path is built only on failure, while unwinding.
 */
const copy = (value: unknown, depth: number): unknown => {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value
    case "number":
      if (Number.isFinite(value)) return value
      problem = `: ${value} is not a JSON number`
      return notJson
    case "object": {
      if (value === null) return null
      if (depth >= maxDepth) {
        problem = `: nested deeper than ${maxDepth} levels (or a cycle)`
        return notJson
      }
      if (Array.isArray(value)) {
        const out: Array<unknown> = new Array(value.length)
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i]
          const copied = item === undefined ? undefinedInArray() : copy(item, depth + 1)
          if (copied === notJson) {
            problem = `[${i}]${problem}`
            return notJson
          }
          out[i] = copied
        }
        return out
      }
      const proto: unknown = Object.getPrototypeOf(value)
      if (proto !== Object.prototype && proto !== null) {
        problem = `: a ${(value as object).constructor?.name ?? "non-plain"} object is not a JSON value`
        return notJson
      }
      const out: Record<string, unknown> = {}
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue
        const item: unknown = (value as Record<string, unknown>)[key]
        if (item === undefined) continue
        const copied = copy(item, depth + 1)
        if (copied === notJson) {
          problem = `.${key}${problem}`
          return notJson
        }
        // "__proto__" must stay a plain property, as JSON.parse makes it
        if (key === "__proto__") Object.defineProperty(out, key, { value: copied, enumerable: true, writable: true, configurable: true })
        else out[key] = copied
      }
      return out
    }
    default:
      problem = `: a ${typeof value} is not a JSON value`
      return notJson
  }
}

const undefinedInArray = () => {
  problem = ": undefined is not a JSON value"
  return notJson
}

/** The JSON copy of `value`, or the problem as `path: what` with `path` below `what`'s root. */
const jsonOf = (value: unknown, what: string): Result.Result<unknown, string> => {
  const copied = copy(value, 0)
  if (copied !== notJson) return Result.succeed(copied)
  const text = problem.replace(/^\./, "")
  return Result.fail(`${what} is not valid A2A: ${text.startsWith(":") ? `the value${text}` : text}`)
}

// Built once: the formatter is stateless.
const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

/** The first issue of a schema failure as `path: message`. */
const firstIssue = (error: Schema.SchemaError): string => {
  const issue = formatIssues(error.issue).issues[0]
  if (issue === undefined) return "invalid"
  const path = (issue.path ?? [])
    .map((segment) => {
      const key = typeof segment === "object" ? segment.key : segment
      return typeof key === "number" ? `[${key}]` : `.${String(key)}`
    })
    .join("")
    .replace(/^\./, "")
  return path === "" ? issue.message : `${path}: ${issue.message}`
}

/** Copies `value` as JSON, then validates the copy with `validate` (type side, unknown fields dropped). */
const checked = <A>(validate: (u: unknown) => Result.Result<A, Schema.SchemaError>, value: unknown, what: string): Result.Result<A, string> =>
  Result.flatMap(jsonOf(value, what), (json) => Result.mapError(validate(json), (error) => `${what} is not valid A2A: ${firstIssue(error)}`))

// The type side of each schema: the value is checked as it will be held, fields the schema does not know dropped.
const validateMessage = Schema.decodeUnknownResult(Schema.toType(Message))
const validatePart = Schema.decodeUnknownResult(Schema.toType(Part))
const validateMetadata = Schema.decodeUnknownResult(Schema.toType(Metadata))
const validateChunk = Schema.decodeUnknownResult(
  Schema.toType(TaskArtifactUpdateEvent.mapFields(Struct.pick(["artifact", "append", "lastChunk"])))
)

const isObject = (u: unknown): u is object => typeof u === "object" && u !== null

/** Each part copied and validated, or undefined at the first that is not valid (the caller words it). */
const checkedParts = (parts: ReadonlyArray<unknown>): Array<Part> | undefined => {
  const out: Array<Part> = new Array(parts.length)
  for (let i = 0; i < parts.length; i++) {
    const json = copy(parts[i], 0)
    if (json === notJson) return undefined
    const part = validatePart(json)
    if (Result.isFailure(part)) return undefined
    out[i] = part.success
  }
  return out
}

/** Metadata copied and validated, or undefined when it is not valid (the caller words it). */
const checkedMetadata = (metadata: unknown): Metadata | undefined => {
  const json = copy(metadata, 0)
  if (json === notJson) return undefined
  return Result.getOrUndefined(validateMetadata(json))
}

const isMessage = (u: object): boolean => (u as { kind?: unknown }).kind === "message"

/**
 * The agent Message for `input` in the task `ids`, or why it is not valid A2A (wrong part shape, empty
 * parts, a file with both bytes and uri, metadata that is not JSON, ...).
 */
export const agentMessageOf = (
  input: MessageInput,
  ids: { readonly taskId: string; readonly contextId: string }
): Result.Result<Message, string> => {
  if (typeof input === "string") return Result.succeed(toAgentMessage(input, ids))
  if (!isObject(input)) return Result.fail(`message is not valid A2A: expected text, a part, parts or a Message, got ${typeof input}`)
  if (!isMessage(input)) {
    // Parts: the Message around them is ours and valid once they are.
    const parts = checkedParts(toParts(input as PartsInput))
    if (parts !== undefined && parts.length > 0) return Result.succeed(toAgentMessage(parts, ids))
  }
  return checked(validateMessage, toAgentMessage(input, ids), "message")
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/**
 * The artifact of a chunk, its optional fields only when given. Built as a literal and filled in, not
 * spread from temporary objects: on Node 20 each spread costs more than the rest of the chunk's entry.
 */
const artifactOf = (
  artifactId: string,
  parts: Array<Part>,
  name: string | undefined,
  description: string | undefined,
  metadata: Metadata | undefined
): Artifact => {
  if (name === undefined && description === undefined && metadata === undefined) return { artifactId, parts }
  const artifact: Mutable<Artifact> = { artifactId, parts }
  if (name !== undefined) artifact.name = name
  if (description !== undefined) artifact.description = description
  if (metadata !== undefined) artifact.metadata = metadata
  return artifact
}

/** The chunk with the flags that were given, as one literal of its shape. */
const chunkOf = (artifact: Artifact, append: boolean | undefined, lastChunk: boolean | undefined): ArtifactChunk =>
  append === undefined
    ? (lastChunk === undefined ? { type: "artifact", artifact } : { type: "artifact", artifact, lastChunk })
    : (lastChunk === undefined ? { type: "artifact", artifact, append } : { type: "artifact", artifact, append, lastChunk })

const isOptional = (u: unknown, type: "string" | "boolean") => u === undefined || typeof u === type

/**
 * The artifact chunk for `parts` and `options`, or why it is not valid A2A. Text with plain options (what
 * a stream of chunks sends) is valid by construction; parts and metadata go through their schemas.
 */
export const artifactChunkOf = (parts: PartsInput, options: ArtifactOptions): Result.Result<ArtifactChunk, string> => {
  if (!isObject(options)) return Result.fail(`artifact options must be an object, got ${options === null ? "null" : typeof options}`)
  const { append, artifactId, description, lastChunk, metadata, name } = options
  const id = artifactId ?? freshId()
  const plainOptions = typeof id === "string" && isOptional(name, "string") && isOptional(description, "string") &&
    isOptional(append, "boolean") && isOptional(lastChunk, "boolean")
  if (plainOptions && (typeof parts === "string" || isObject(parts))) {
    const meta = metadata === undefined ? undefined : checkedMetadata(metadata)
    const entered = typeof parts === "string" ? [textPart(parts)] : checkedParts(toParts(parts))
    if (entered !== undefined && (metadata === undefined || meta !== undefined)) {
      return Result.succeed(chunkOf(artifactOf(id, entered, name, description, meta), append, lastChunk))
    }
  }
  if (typeof parts !== "string" && !isObject(parts)) {
    return Result.fail(`artifact is not valid A2A: expected text, a part or parts, got ${parts === null ? "null" : typeof parts}`)
  }
  // Something is wrong: the schema of the whole chunk says what, with its path.
  const chunk = {
    artifact: {
      artifactId: id,
      parts: toParts(parts),
      ...(name === undefined ? {} : { name }),
      ...(description === undefined ? {} : { description }),
      ...(metadata === undefined ? {} : { metadata })
    },
    ...(append === undefined ? {} : { append }),
    ...(lastChunk === undefined ? {} : { lastChunk })
  }
  return Result.map(checked(validateChunk, chunk, "artifact"), (valid) => chunkOf(valid.artifact, valid.append, valid.lastChunk))
}

/** The most an agent may save with a task (`TaskContext.save`): 1 MiB of JSON. */
export const maxSavedBytes = 1024 * 1024

/**
 * What an agent saves with its task (see `TaskContext.save`) as the JSON copy that will be stored, or why
 * it cannot be: not JSON (a function, bigint, Date, cycle, ...), or over {@link maxSavedBytes}.
 */
export const savedStateOf = (value: unknown): Result.Result<unknown, string> => {
  if (value === undefined) return Result.succeed(undefined)
  const copied = copy(value, 0)
  if (copied === notJson) return Result.fail(`the saved state is not JSON: ${problem.replace(/^[.:]\s*/, "")}`)
  const bytes = new TextEncoder().encode(JSON.stringify(copied)).length
  if (bytes > maxSavedBytes) return Result.fail(`the saved state is ${bytes} bytes of JSON, more than the ${maxSavedBytes} a task may keep`)
  return Result.succeed(copied)
}
