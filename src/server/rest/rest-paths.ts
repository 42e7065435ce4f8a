/**
 * The REST binding's URL patterns, matched by hand.
 *
 * The router's path syntax treats `:` as a parameter marker, while A2A's REST paths use it for actions
 * (`/v1/message:send`, `/v1/tasks/{id}:cancel`), so the binding takes `/v1/*` as a whole and dispatches
 * here. Path segments are percent-decoded before the action suffix is read, so `:cancel` and `%3Acancel`
 * both work; a task id reaches the handlers decoded.
 */
import type { RestMatch as Match } from "./rest-dialect.ts"

/** One REST operation with the ids its path carries. */
export type RestOperation =
  | { readonly op: "send" }
  | { readonly op: "stream" }
  | { readonly op: "card" }
  | { readonly op: "get"; readonly taskId: string }
  | { readonly op: "cancel"; readonly taskId: string }
  | { readonly op: "subscribe"; readonly taskId: string }
  | { readonly op: "setPushConfig"; readonly taskId: string }
  | { readonly op: "listPushConfigs"; readonly taskId: string }
  | { readonly op: "getPushConfig"; readonly taskId: string; readonly configId: string }
  | { readonly op: "deletePushConfig"; readonly taskId: string; readonly configId: string }

/** The outcome of matching a request line. */
export type RestMatch = Match<RestOperation>

/** The prefix every REST route lives under. */
export const REST_PREFIX = "/v1/"

type Methods = Partial<Record<string, RestOperation>>

const decode = (segment: string): string | undefined => {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

const choose = (method: string, methods: Methods): RestMatch => {
  const operation = methods[method]
  return operation !== undefined ? { _tag: "Matched", operation } : { _tag: "MethodNotAllowed", allow: Object.keys(methods) }
}

const notFound = (method: string, pathname: string): RestMatch => ({
  _tag: "NotFound",
  message: `No A2A REST operation at ${method} ${pathname.slice(0, 200)}`
})

const taskRoute = (method: string, segment: string): RestMatch | undefined => {
  for (const action of ["cancel", "subscribe"] as const) {
    const suffix = `:${action}`
    if (segment === suffix) return undefined
    if (segment.endsWith(suffix)) {
      const taskId = segment.slice(0, -suffix.length)
      return action === "cancel"
        ? choose(method, { POST: { op: "cancel", taskId } })
        : choose(method, { GET: { op: "subscribe", taskId }, POST: { op: "subscribe", taskId } })
    }
  }
  return segment === "" ? undefined : choose(method, { GET: { op: "get", taskId: segment } })
}

/** Matches `method` and `pathname` (no query) against the REST routes of A2A 0.3.0. */
export const matchRestRoute = (method: string, pathname: string): RestMatch => {
  if (!pathname.startsWith(REST_PREFIX)) return notFound(method, pathname)
  const raw = pathname.slice(REST_PREFIX.length).split("/")
  const segments: Array<string> = []
  for (const part of raw) {
    const decoded = decode(part)
    if (decoded === undefined) return { _tag: "BadPath" }
    segments.push(decoded)
  }
  const [first, second, third, fourth] = segments
  switch (segments.length) {
    case 1:
      if (first === "message:send") return choose(method, { POST: { op: "send" } })
      if (first === "message:stream") return choose(method, { POST: { op: "stream" } })
      if (first === "card") return choose(method, { GET: { op: "card" } })
      if (first === "tasks") {
        return { _tag: "NotFound", message: "Listing tasks (GET /v1/tasks) is not part of this agent's A2A 0.3.0 binding" }
      }
      break
    case 2:
      if (first === "tasks") return taskRoute(method, second!) ?? notFound(method, pathname)
      break
    case 3:
      if (first === "tasks" && second !== "" && third === "pushNotificationConfigs") {
        return choose(method, { GET: { op: "listPushConfigs", taskId: second! }, POST: { op: "setPushConfig", taskId: second! } })
      }
      break
    case 4:
      if (first === "tasks" && second !== "" && third === "pushNotificationConfigs" && fourth !== "") {
        return choose(method, {
          GET: { op: "getPushConfig", taskId: second!, configId: fourth! },
          DELETE: { op: "deletePushConfig", taskId: second!, configId: fourth! }
        })
      }
      break
  }
  return notFound(method, pathname)
}
