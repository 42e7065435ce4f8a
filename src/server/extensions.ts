/**
 * Extension negotiation through the `X-A2A-Extensions` header.
 *
 * A client lists the extension URIs it wants, comma separated. Those the agent declares are
 * activated and echoed back in the same header; unknown ones are ignored. A request that does
 * not activate an extension the agent marks `required` is refused before any work starts.
 */
import { InvalidRequest } from "../../schemas/error-catalogue.ts"
import type { AgentExtension } from "../../schemas/index.ts"

/** The header that carries requested and activated extension URIs. */
export const EXTENSIONS_HEADER = "x-a2a-extensions"

/** Splits a header value into trimmed, non-empty URIs. */
export const parseExtensionsHeader = (value: string | undefined): ReadonlyArray<string> =>
  value === undefined ? [] : value.split(",").map((uri) => uri.trim()).filter((uri) => uri.length > 0)

/** The outcome of negotiation: the activated URIs, or the refusal naming what was missing. */
export type Negotiation =
  | { readonly _tag: "Activated"; readonly uris: ReadonlyArray<string> }
  | { readonly _tag: "Refused"; readonly error: InvalidRequest }

/** Activates the requested extensions the agent declares and checks the required ones. */
export const negotiateExtensions = (
  declared: ReadonlyArray<AgentExtension>,
  requested: ReadonlyArray<string>
): Negotiation => {
  if (declared.length === 0) return { _tag: "Activated", uris: [] }
  const wanted = new Set(requested)
  const uris = declared.filter((ext) => wanted.has(ext.uri)).map((ext) => ext.uri)
  const missing = declared.filter((ext) => ext.required === true && !wanted.has(ext.uri))
  if (missing.length > 0) {
    const names = missing.map((ext) => ext.uri).join(", ")
    return {
      _tag: "Refused",
      error: new InvalidRequest({
        message: `This agent requires the extension${missing.length > 1 ? "s" : ""} ${names}; ` +
          `activate ${missing.length > 1 ? "them" : "it"} with the X-A2A-Extensions header`
      })
    }
  }
  return { _tag: "Activated", uris }
}
