/**
 * Which extension an extension method (`{namespace}/{action}`) belongs to, and the `X-A2A-Extensions`
 * value that activates it on top of what the caller already asked for.
 *
 * A card says which methods an extension adds in the declaration's `params.methods` (a list of method
 * names; `Workflow.extension` publishes it), so a method finds its extension there: the declaration that
 * lists the method itself, else one that lists another method of the same namespace.
 *
 * @module
 */
import type { AgentCard } from "../../schemas/agent-card.ts"
import { EXTENSIONS_HEADER, parseExtensionsHeader } from "./interceptors.ts"

const declaredMethods = (params: unknown): ReadonlyArray<string> => {
  const methods = typeof params === "object" && params !== null ? (params as { readonly methods?: unknown }).methods : undefined
  return Array.isArray(methods) ? methods.filter((m): m is string => typeof m === "string") : []
}

/**
 * The URI of the extension `card` declares for `method`: the first whose `params.methods` lists the method,
 * else the first listing a method of its namespace (the part before the last `/`); undefined when none does.
 *
 * @example
 * ```ts
 * extensionFor(client.card, "approval/approve") // "https://a2a-actors.dev/ext/approval/v1"
 * ```
 */
export const extensionFor = (card: AgentCard | undefined, method: string): string | undefined => {
  const declared = card?.capabilities.extensions ?? []
  const exact = declared.find((ext) => declaredMethods(ext.params).includes(method))
  if (exact !== undefined) return exact.uri
  const slash = method.lastIndexOf("/")
  if (slash <= 0) return undefined
  const prefix = method.slice(0, slash + 1)
  return declared.find((ext) => declaredMethods(ext.params).some((m) => m.startsWith(prefix)))?.uri
}

/**
 * The per-call headers with `uri` added to `X-A2A-Extensions`, merged with the URIs already asked for in
 * the client's headers and in the call's (whatever their spelling of the header name). Interceptors such as
 * `extensionsHeader` add theirs afterwards, to the same value.
 */
export const activating = (
  uri: string,
  clientHeaders: Readonly<Record<string, string>>,
  callHeaders: Readonly<Record<string, string>> | undefined
): Readonly<Record<string, string>> => {
  const isExtensionsHeader = (name: string) => name.toLowerCase() === EXTENSIONS_HEADER.toLowerCase()
  const asked = [...Object.entries(clientHeaders), ...Object.entries(callHeaders ?? {})]
    .filter(([name]) => isExtensionsHeader(name))
    .flatMap(([, value]) => parseExtensionsHeader(value))
  const others = Object.entries(callHeaders ?? {}).filter(([name]) => !isExtensionsHeader(name))
  return Object.fromEntries([...others, [EXTENSIONS_HEADER, [...new Set([...asked, uri])].join(", ")]])
}
