/**
 * Extension negotiation through the extensions header: `X-A2A-Extensions` in A2A 0.3, `A2A-Extensions` in 1.0.
 *
 * A client lists the extension URIs it wants, comma separated. Those the agent declares are activated and
 * echoed back in the header of the request's version; unknown ones are ignored. Both spellings are read on
 * either version (peers mix them). A request that does not activate an extension the agent marks `required`
 * is refused before any work starts: -32600 in 0.3 (which has no code for it), -32008 in 1.0.
 */
import { ExtensionSupportRequired, InvalidRequest, type ProtocolError } from "../../schemas/error-catalogue.ts"
import type { AgentExtension } from "../../schemas/index.ts"

/** The header that carries requested and activated extension URIs in A2A 0.3. */
export const EXTENSIONS_HEADER = "x-a2a-extensions"

/** The header that carries requested and activated extension URIs in A2A 1.0. */
export const V1_EXTENSIONS_HEADER = "a2a-extensions"

/** Splits a header value into trimmed, non-empty URIs. */
export const parseExtensionsHeader = (value: string | undefined): ReadonlyArray<string> =>
  value === undefined ? [] : value.split(",").map((uri) => uri.trim()).filter((uri) => uri.length > 0)

/** The URIs a request asks for, in either header. */
export const requestedExtensions = (headers: Readonly<Record<string, string | undefined>>): ReadonlyArray<string> => {
  const legacy = parseExtensionsHeader(headers[EXTENSIONS_HEADER])
  const current = parseExtensionsHeader(headers[V1_EXTENSIONS_HEADER])
  return current.length === 0 ? legacy : legacy.length === 0 ? current : [...legacy, ...current]
}

/** The outcome of negotiation: the activated URIs, or the refusal naming what was missing. */
export type Negotiation =
  | { readonly _tag: "Activated"; readonly uris: ReadonlyArray<string> }
  | { readonly _tag: "Refused"; readonly error: ProtocolError; readonly missing: ReadonlyArray<string> }

const refusalText = (missing: ReadonlyArray<string>, header: string) =>
  `This agent requires the extension${missing.length > 1 ? "s" : ""} ${missing.join(", ")}; ` +
  `activate ${missing.length > 1 ? "them" : "it"} with the ${header} header`

/** The 0.3 refusal: InvalidRequest (-32600). */
export const extensionRequired03 = (missing: ReadonlyArray<string>): ProtocolError =>
  new InvalidRequest({ message: refusalText(missing, "X-A2A-Extensions") })

/** The 1.0 refusal: ExtensionSupportRequiredError (-32008). */
export const extensionRequiredV1 = (missing: ReadonlyArray<string>): ProtocolError =>
  new ExtensionSupportRequired({ message: refusalText(missing, "A2A-Extensions") })

/** Activates the requested extensions the agent declares and checks the required ones. */
export const negotiateExtensions = (
  declared: ReadonlyArray<AgentExtension>,
  requested: ReadonlyArray<string>,
  refuse: (missing: ReadonlyArray<string>) => ProtocolError = extensionRequired03
): Negotiation => {
  if (declared.length === 0) return { _tag: "Activated", uris: [] }
  const wanted = new Set(requested)
  const uris = declared.filter((ext) => wanted.has(ext.uri)).map((ext) => ext.uri)
  const missing = declared.filter((ext) => ext.required === true && !wanted.has(ext.uri)).map((ext) => ext.uri)
  if (missing.length > 0) return { _tag: "Refused", error: refuse(missing), missing }
  return { _tag: "Activated", uris }
}
