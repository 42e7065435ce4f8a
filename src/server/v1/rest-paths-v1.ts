/**
 * The A2A 1.0 REST routes (the proto's `google.api.http` rules): no `/v1` prefix, and every route also under
 * an optional `/{tenant}` prefix. Subscribe answers GET (the proto) and POST (the spec's text and the
 * official kit). Matched by hand, like the 0.3 routes: the router's syntax reads the `:` of `message:send`
 * as a parameter. Segments are percent-decoded; ids reach the handlers decoded.
 *
 * @module
 */
import type { V1MethodName } from "../../../schemas/v1/methods.ts"
import type { RestMatch } from "../rest/rest-dialect.ts"

/** One 1.0 REST operation with what its path carries. */
export interface V1RestOperation {
  readonly op: V1MethodName
  /** The `/{tenant}` prefix, when the path has one. */
  readonly tenant?: string
  readonly taskId?: string
  readonly configId?: string
}

type Methods = Partial<Record<string, V1RestOperation>>

const decode = (segment: string): string | undefined => {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

const choose = (method: string, methods: Methods): RestMatch<V1RestOperation> => {
  const operation = methods[method]
  return operation !== undefined ? { _tag: "Matched", operation } : { _tag: "MethodNotAllowed", allow: Object.keys(methods) }
}

const taskAction = (method: string, segment: string): RestMatch<V1RestOperation> | undefined => {
  for (const [suffix, op] of [[":cancel", "CancelTask"], [":subscribe", "SubscribeToTask"]] as const) {
    if (segment === suffix) return undefined
    if (segment.endsWith(suffix)) {
      const taskId = segment.slice(0, -suffix.length)
      return op === "CancelTask"
        ? choose(method, { POST: { op, taskId } })
        : choose(method, { GET: { op, taskId }, POST: { op, taskId } })
    }
  }
  return segment === "" ? undefined : choose(method, { GET: { op: "GetTask", taskId: segment } })
}

/** The routes without a tenant. */
const route = (method: string, segments: ReadonlyArray<string>): RestMatch<V1RestOperation> | undefined => {
  const [first, second, third, fourth] = segments
  switch (segments.length) {
    case 1:
      if (first === "message:send") return choose(method, { POST: { op: "SendMessage" } })
      if (first === "message:stream") return choose(method, { POST: { op: "SendStreamingMessage" } })
      if (first === "extendedAgentCard") return choose(method, { GET: { op: "GetExtendedAgentCard" } })
      if (first === "tasks") return choose(method, { GET: { op: "ListTasks" } })
      return undefined
    case 2:
      return first === "tasks" ? taskAction(method, second!) : undefined
    case 3:
      if (first === "tasks" && second !== "" && third === "pushNotificationConfigs") {
        return choose(method, {
          GET: { op: "ListTaskPushNotificationConfigs", taskId: second! },
          POST: { op: "CreateTaskPushNotificationConfig", taskId: second! }
        })
      }
      return undefined
    case 4:
      if (first === "tasks" && second !== "" && third === "pushNotificationConfigs" && fourth !== "") {
        return choose(method, {
          GET: { op: "GetTaskPushNotificationConfig", taskId: second!, configId: fourth! },
          DELETE: { op: "DeleteTaskPushNotificationConfig", taskId: second!, configId: fourth! }
        })
      }
      return undefined
    default:
      return undefined
  }
}

const withTenant = (match: RestMatch<V1RestOperation>, tenant: string): RestMatch<V1RestOperation> =>
  match._tag === "Matched" ? { _tag: "Matched", operation: { ...match.operation, tenant } } : match

/** Matches `method` and `pathname` (no query) against the 1.0 routes. */
export const matchV1RestRoute = (method: string, pathname: string): RestMatch<V1RestOperation> => {
  const segments: Array<string> = []
  for (const part of pathname.slice(1).split("/")) {
    const decoded = decode(part)
    if (decoded === undefined) return { _tag: "BadPath" }
    segments.push(decoded)
  }
  const direct = route(method, segments)
  if (direct !== undefined) return direct
  const tenant = segments[0]
  const prefixed = tenant === undefined || tenant === "" ? undefined : route(method, segments.slice(1))
  if (prefixed !== undefined) return withTenant(prefixed, tenant!)
  return { _tag: "NotFound", message: `No A2A 1.0 REST operation at ${method.slice(0, 10)} ${pathname.slice(0, 200)}` }
}
