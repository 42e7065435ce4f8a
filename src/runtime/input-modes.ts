import type { AgentCard, Part } from "../../schemas/index.ts"

/**
 * The MIME type a part carries: the one it names (a file's `mimeType`, 1.0's `mediaType` on text and data),
 * else text is `text/plain`, data `application/json`, a file none.
 */
export const mimeTypeOf = (part: Part): string | undefined =>
  part.kind === "file" ? part.file.mimeType : part.mediaType !== undefined && part.mediaType !== "" ? part.mediaType : part.kind === "text" ? "text/plain" : "application/json"

const bare = (mime: string) => (mime.split(";", 1)[0] ?? "").trim().toLowerCase()

const matches = (mode: string, mime: string): boolean => {
  const m = bare(mode)
  if (m === "*/*" || m === "*") return true
  if (m.endsWith("/*")) return mime.startsWith(m.slice(0, -1))
  return m === mime
}

/**
 * The input modes a card accepts: its defaults plus every skill's own. Undefined means "anything" (no
 * modes listed, or a wildcard): the runtime then checks nothing.
 */
export const acceptedInputModes = (card: AgentCard): ReadonlyArray<string> | undefined => {
  const modes = [...card.defaultInputModes, ...card.skills.flatMap((s) => s.inputModes ?? [])]
  if (modes.length === 0 || modes.some((m) => bare(m) === "*/*" || bare(m) === "*")) return undefined
  return modes
}

/** The first MIME type among the parts that no accepted mode covers (parts without a type pass). */
export const unsupportedMimeType = (
  parts: ReadonlyArray<Part>,
  modes: ReadonlyArray<string> | undefined
): string | undefined => {
  if (modes === undefined) return undefined
  for (const part of parts) {
    const mime = mimeTypeOf(part)
    if (mime !== undefined && !modes.some((mode) => matches(mode, bare(mime)))) return mime
  }
  return undefined
}
