/**
 * The JSON-RPC request classifier shared by the server and the conformance fixture runner: it turns a parsed
 * body into a method call with decoded params, or into the protocol error the server must answer with. One
 * classifier per method table: {@link decodeRequest} for A2A 0.3, `decodeV1Request` (`v1/decode.ts`) for 1.0.
 *
 * @module
 */
import { Result, Schema, SchemaIssue } from "effect"
import { InvalidParams, InvalidRequest, JSONParse, MethodNotFound, type ProtocolError } from "./error-catalogue.ts"
import type { ResponseId } from "./jsonrpc.ts"
import { type JsonTextOptions, readJsonText } from "./json-text.ts"
import { methods, type MethodName, type MethodSpec } from "./methods.ts"

/** A method table: what each method's params decode with, and whether it streams. */
export type MethodTable<T> = { readonly [M in keyof T]: MethodSpec }

/** A core call of `table` whose params passed the method's schema; narrowing on `method` types `params`. */
export type DecodedCall<T extends MethodTable<T>> = {
  readonly [M in keyof T & string]: {
    readonly _tag: "Request"
    readonly id: ResponseId
    readonly method: M
    readonly params: Schema.Schema.Type<T[M]["params"]>
    /** True when the request carried no `id` member (a JSON-RPC notification). */
    readonly notification: boolean
  }
}[keyof T & string]

/** A core A2A 0.3 call whose params passed the method's schema; narrowing on `method` types `params`. */
export type DecodedRequest = DecodedCall<typeof methods>

/** A call to a server-registered extension method (`{namespace}/{action}`); its params are the server's to judge. */
export interface ExtensionRequest {
  readonly _tag: "Extension"
  readonly id: ResponseId
  readonly method: string
  readonly params: unknown
  readonly notification: boolean
}

/** A request that must be answered with `error`, carrying the id to echo. */
export interface RequestFailure {
  readonly _tag: "Failure"
  readonly id: ResponseId
  readonly error: ProtocolError
  /**
   * The method the body names, when it is an object with a string `method` member, however wrong the rest
   * is: a server answers a refused request to a streaming method in SSE, as it answers every other error of one.
   */
  readonly method?: string
}

/** Options of {@link decodeRequest}. */
export interface DecodeRequestOptions {
  /**
   * Extension methods the server routes itself. Core method names always win; anything else that is not
   * listed here is MethodNotFound.
   */
  readonly extensionMethods?: ReadonlySet<string> | ((method: string) => boolean)
}

/** How a classifier for one method table reads params and words its refusals. */
export interface RequestDecoderOptions {
  /** Rewrites params before the schema judges them (1.0: the lenient ProtoJSON spellings). */
  readonly normalise?: (params: unknown) => unknown
  /** Prefix of InvalidParams messages, e.g. `"Invalid params"`. */
  readonly invalidParams: string
  /**
   * Why a method that is not in the table is unknown, when it is a method of another protocol version (the
   * refusal then names that version); `undefined` for any other name.
   */
  readonly foreignMethod?: (method: string) => string | undefined
}

type ParamsDecoder = (params: unknown) => Result.Result<unknown, Schema.SchemaError>

const MAX_TEXT = 200
const MAX_ISSUES = 3

const clip = (text: string, max = MAX_TEXT): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`)

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

// Own members only: a body is plain JSON, and nothing inherited may stand in for a missing member.
const member = (o: Record<string, unknown>, key: string): unknown => (Object.hasOwn(o, key) ? o[key] : undefined)

/**
 * How long a string request id may be. The id is repeated in the answer, and in every event of a stream, so
 * an unbounded one multiplies itself: longer ids are refused (-32600, id null), never echoed.
 */
export const MAX_REQUEST_ID_LENGTH = 256

type IdReading = { readonly ok: true; readonly id: ResponseId } | { readonly ok: false; readonly message: string }

// Upstream types request ids as string or integer (JSON-RPC itself only discourages fractions); refusing a
// fractional id here keeps every reply's id valid against the response schemas.
const readId = (u: unknown): IdReading => {
  if (typeof u === "string") {
    return u.length <= MAX_REQUEST_ID_LENGTH
      ? { ok: true, id: u }
      : { ok: false, message: `Invalid Request: a string id may be at most ${MAX_REQUEST_ID_LENGTH} characters long` }
  }
  return u === null || Number.isSafeInteger(u)
    ? { ok: true, id: u as ResponseId }
    : { ok: false, message: "Invalid Request: id must be a string, an integer or null" }
}

type PathSegment = PropertyKey | { readonly key: PropertyKey }

const formatPath = (path: ReadonlyArray<PathSegment> | undefined): string =>
  path === undefined ? "" : clip(
    path
      .map((segment, i) => {
        const key = typeof segment === "object" ? segment.key : segment
        return typeof key === "number" ? `[${key}]` : `${i === 0 ? "" : "."}${clip(String(key), 40)}`
      })
      .join("")
  )

// Built once: the formatter is stateless. Decoding does not keep rejected input (`reportInput` is off), so
// the messages name what was expected and never quote the request.
const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

/**
 * A short, human-readable account of why params failed: the first few failing paths with what was expected
 * there. Values from the request are clipped so a huge or hostile input is never echoed back in full.
 */
export const describeParamsError = (error: Schema.SchemaError, label = "Invalid params"): {
  readonly message: string
  readonly issues: ReadonlyArray<{ readonly path: string; readonly message: string }>
} => {
  let issues: Array<{ readonly path: string; readonly message: string }>
  try {
    issues = formatIssues(error.issue).issues
      .slice(0, MAX_ISSUES)
      .map((issue) => ({ path: formatPath(issue.path), message: clip(issue.message) }))
  } catch {
    // The formatter walks the issue tree recursively: however unlikely, a tree deep enough to overflow the
    // stack must still get its -32602, just without the rendering.
    return { message: `${label}: the params do not match the method's schema`, issues: [] }
  }
  const text = issues.map((i) => (i.path === "" ? i.message : `at ${i.path}: ${i.message}`)).join("; ")
  return { message: `${label}: ${text}`, issues }
}

const fail = (id: ResponseId, error: ProtocolError, method?: string): RequestFailure =>
  method === undefined ? { _tag: "Failure", id, error } : { _tag: "Failure", id, error, method }

/** The `method` member of an envelope, when it is a string. */
const namedMethod = (envelope: Record<string, unknown>): string | undefined => {
  const method = member(envelope, "method")
  return typeof method === "string" ? method : undefined
}

const isExtension = (options: DecodeRequestOptions | undefined, method: string): boolean => {
  const known = options?.extensionMethods
  if (known === undefined) return false
  return typeof known === "function" ? known(method) : known.has(method)
}

/**
 * The classifier of `table`. Envelope problems (not an object, wrong `jsonrpc`, missing or non-string `method`,
 * `id` of a wrong type or a string id over {@link MAX_REQUEST_ID_LENGTH} characters) are InvalidRequest, echoing the id when it can be read; an unknown method is
 * MethodNotFound unless the server registered it as an extension method; params that fail the method's schema
 * are InvalidParams with a message naming the failing path.
 */
export const makeRequestDecoder = <T extends MethodTable<T>>(
  table: T,
  decoderOptions: RequestDecoderOptions
): ((json: unknown, options?: DecodeRequestOptions) => DecodedCall<T> | ExtensionRequest | RequestFailure) => {
  // Built once: the classifier runs on every request, and a Map avoids inherited keys such as "constructor"
  // or "__proto__" resolving to something.
  const decoders: ReadonlyMap<string, ParamsDecoder> = new Map(
    (Object.keys(table) as Array<keyof T & string>).map((name) => {
      const decode = Schema.decodeUnknownResult(table[name].params as Schema.Codec<unknown, unknown>)
      const normalise = decoderOptions.normalise
      return [name, normalise === undefined ? decode : (params: unknown) => decode(normalise(params))] as const
    })
  )
  // Methods that take no params also accept an absent `params` member (CONFORMANCE.md, extended card): it is
  // decoded as whichever of `undefined` and `{}` the method's schema accepts.
  const absentParams: ReadonlyMap<string, undefined | {}> = new Map(
    [...decoders].flatMap(([name, decode]): Array<[string, undefined | {}]> =>
      Result.isSuccess(decode(undefined)) ? [[name, undefined]] : Result.isSuccess(decode({})) ? [[name, {}]] : []
    )
  )
  const label = decoderOptions.invalidParams
  return (json: unknown, options?: DecodeRequestOptions): DecodedCall<T> | ExtensionRequest | RequestFailure => {
    if (!isRecord(json)) {
      return fail(null, new InvalidRequest({ message: "Invalid Request: the body must be a JSON-RPC 2.0 request object" }))
    }
    const method = namedMethod(json)
    const notification = !Object.hasOwn(json, "id")
    const readable = readId(notification ? null : json["id"])
    if (!readable.ok) return fail(null, new InvalidRequest({ message: readable.message }), method)
    const id = readable.id
    if (member(json, "jsonrpc") !== "2.0") {
      return fail(id, new InvalidRequest({ message: "Invalid Request: jsonrpc must be exactly \"2.0\"" }), method)
    }
    if (method === undefined) {
      return fail(id, new InvalidRequest({ message: "Invalid Request: method must be a string" }))
    }
    const params = member(json, "params")
    const decode = decoders.get(method)
    if (decode === undefined) {
      if (isExtension(options, method)) return { _tag: "Extension", id, method, params, notification }
      const foreign = decoderOptions.foreignMethod?.(method)
      return fail(id, new MethodNotFound({ message: `Method not found: ${clip(method, 100)}${foreign === undefined ? "" : ` ${foreign}`}` }), method)
    }
    if (params === undefined && !absentParams.has(method)) {
      return fail(id, new InvalidParams({ message: `${label}: ${method} requires params` }), method)
    }
    const decoded = decode(params === undefined ? absentParams.get(method) : params)
    if (Result.isFailure(decoded)) {
      const { issues, message } = describeParamsError(decoded.failure, label)
      return fail(id, new InvalidParams({ message, data: { issues } }), method)
    }
    return { _tag: "Request", id, method, params: decoded.success, notification } as DecodedCall<T>
  }
}

/** The methods of A2A 1.0, whose names a 0.3 request may use by mistake. */
const v1MethodNames: ReadonlySet<string> = new Set([
  "SendMessage", "SendStreamingMessage", "GetTask", "ListTasks", "CancelTask", "SubscribeToTask",
  "CreateTaskPushNotificationConfig", "GetTaskPushNotificationConfig", "ListTaskPushNotificationConfigs",
  "DeleteTaskPushNotificationConfig", "GetExtendedAgentCard"
])

const decode03 = makeRequestDecoder(methods, {
  invalidParams: "Invalid params",
  foreignMethod: (method) =>
    v1MethodNames.has(method)
      ? "(an A2A 1.0 method: this request has no A2A-Version header, so it is read as A2A 0.3; send A2A-Version: 1.0)"
      : undefined
})

/**
 * Classifies a parsed A2A 0.3 JSON-RPC body (see {@link makeRequestDecoder}).
 *
 * Without `options.extensionMethods` the result type has no Extension case.
 *
 * Give it the value {@link parseJsonBody} parsed: that is where prototype keys are removed and nesting is
 * bounded. A record member named `__proto__` in a value parsed otherwise would become the prototype of the
 * decoded record.
 *
 * @example
 * const body = parseJsonBody(text)
 * if (body._tag === "Failure") return reply(body.id, toWireError(body.error))
 * const decoded = decodeRequest(body.value, { extensionMethods: new Set(["com.example.approval/approve"]) })
 * if (decoded._tag === "Failure") return reply(decoded.id, toWireError(decoded.error))
 * if (decoded._tag === "Extension") return routeExtension(decoded)
 * if (decoded.method === "tasks/get") return runtime.get(decoded.params, ctx) // params: TaskQueryParams
 */
export function decodeRequest(json: unknown): DecodedRequest | RequestFailure
export function decodeRequest(
  json: unknown,
  options: DecodeRequestOptions
): DecodedRequest | ExtensionRequest | RequestFailure
export function decodeRequest(
  json: unknown,
  options?: DecodeRequestOptions
): DecodedRequest | ExtensionRequest | RequestFailure {
  return decode03(json, options) as DecodedRequest | ExtensionRequest | RequestFailure
}

/** A body that parsed as JSON. */
export interface ParsedBody {
  readonly _tag: "Parsed"
  readonly value: unknown
}

/**
 * Parses a request body as JSON through {@link readJsonText}: prototype keys are removed in every spelling and
 * nesting is bounded (64 levels by default). Anything that is not one JSON text is JSONParse (-32700) with id
 * null. A body nested too deeply is refused where it is too deep, as {@link decodeRequest} would: InvalidParams
 * (-32602) within `params`, InvalidRequest (-32600) elsewhere, echoing the id when it can be read. A single
 * leading byte-order mark is ignored, as RFC 8259 allows. Never throws.
 */
export const parseJsonBody = (text: string, options: JsonTextOptions = {}): ParsedBody | RequestFailure => {
  const read = readJsonText(text, options)
  switch (read._tag) {
    case "Parsed":
      return read
    case "NotJson":
      return fail(null, new JSONParse({ message: `Invalid JSON payload${read.detail === "" ? "" : `: ${clip(read.detail, 120)}`}` }))
    case "TooDeep": {
      const envelope = isRecord(read.value) ? read.value : undefined
      const id = envelope === undefined ? undefined : readId(member(envelope, "id"))
      const levels = `${read.maxDepth} levels`
      return fail(
        id?.ok === true ? id.id : null,
        envelope !== undefined && read.member === "params"
          ? new InvalidParams({ message: `Invalid params: the request nests objects and arrays deeper than ${levels}` })
          : new InvalidRequest({ message: `Invalid Request: the body nests objects and arrays deeper than ${levels}` }),
        envelope === undefined ? undefined : namedMethod(envelope)
      )
    }
  }
}
