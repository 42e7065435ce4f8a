/**
 * Which request targets can name a route: the same rule on every runtime, applied to the target as the client
 * sent it.
 *
 * Runtimes disagree on what a handler sees. Node hands over the raw target (`/x/..` stays `/x/..`, and no
 * route matches it); Bun resolves dot segments and backslashes before the handler runs (`/x/..` arrives as
 * `/`), and so does any code that rebuilds a `Request` from the URL (`new URL("http://h/x/..")` is
 * `http://h/`). A path that means one endpoint to one runtime and another to the next is how a proxy's rule
 * is walked around, so a target is routed only in normal form, and refused (404) otherwise:
 *
 * - no `.` or `..` segment, in any spelling (`%2e`, `%2E`, `.%2e`, ...);
 * - no backslash, raw or `%5C` (URL parsers read it as `/`);
 * - no empty segment (`//`, a trailing `/`), except the root `/` itself;
 * - no `#` (a request target has no fragment);
 * - at most {@link MAX_TARGET_SEGMENTS} segments.
 *
 * The server applies it to every route (see `a2a-server.ts`); the adapters of runtimes that resolve targets
 * before the handler (Bun, and the Web bridges of Node and Deno, which build a `Request`) apply it first, to
 * the target the runtime still shows them.
 *
 * @module
 */

/** The most path segments a routed target may have (A2A's deepest route has five). */
export const MAX_TARGET_SEGMENTS = 16

const dotSegment = (segment: string): boolean => {
  const s = segment.replace(/%2e/gi, ".")
  return s === "." || s === ".."
}

/**
 * Whether one path segment, raw or percent-decoded (Bun's route parameters are decoded), may be routed: not a
 * dot segment, no backslash, no `#`.
 */
export const isRoutableSegment = (segment: string): boolean =>
  !dotSegment(segment) && !/\\|%5c|#/i.test(segment)

/** The path of a request target: origin-form (`/a?q`) or absolute-form (`http://host/a?q`); `undefined` for any other. */
const pathOf = (target: string): string | undefined => {
  let path = target
  if (!path.startsWith("/")) {
    const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(path)
    if (scheme === null) return undefined
    path = path.slice(scheme[0].length)
    if (path === "" || path.startsWith("?")) return "/"
    if (!path.startsWith("/")) return undefined
  }
  const query = path.indexOf("?")
  return query === -1 ? path : path.slice(0, query)
}

/**
 * Whether `target` (a request target as sent, e.g. `req.url` on Node, or the URL of a Web request whose path
 * the runtime left as sent) is in normal form and may reach a route. See the module note for the rule.
 *
 * @example
 * isRouteTarget("/v1/tasks/t-1?historyLength=2") // true
 * isRouteTarget("/x/..") // false
 * isRouteTarget("/%2e%2e/") // false
 */
export const isRouteTarget = (target: string): boolean => {
  if (target.includes("#")) return false
  const path = pathOf(target)
  if (path === undefined) return false
  if (path === "/") return true
  const segments = path.slice(1).split("/")
  return segments.length <= MAX_TARGET_SEGMENTS && segments.every((s) => s !== "" && isRoutableSegment(s))
}
