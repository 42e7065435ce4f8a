/**
 * Bounds on what a request can put into an audit record. Methods, ids, task ids, extension URIs
 * and reasons come from whoever sends a request, credentials or not; copied whole, a single
 * request could add megabytes to the audit file.
 *
 * @module
 */

/** The most UTF-16 code units of one string field an audit record keeps. */
export const AUDIT_FIELD_LIMIT = 256

/**
 * `text` when it fits {@link AUDIT_FIELD_LIMIT}; otherwise its first 256 code units (one fewer
 * rather than half a surrogate pair) followed by `…[clipped, N chars]`, N being the original
 * length, so a reader sees that and by how much it was cut.
 *
 * @example
 * clipAuditField("x".repeat(5_000_000)) // "xxx…x…[clipped, 5000000 chars]" (256 x)
 */
export const clipAuditField = (text: string): string => {
  if (text.length <= AUDIT_FIELD_LIMIT) return text
  const high = text.charCodeAt(AUDIT_FIELD_LIMIT - 1)
  const cut = high >= 0xd800 && high <= 0xdbff ? AUDIT_FIELD_LIMIT - 1 : AUDIT_FIELD_LIMIT
  return `${text.slice(0, cut)}…[clipped, ${text.length} chars]`
}

/** Every string field of an audit event (and every string in an array field) clipped; `kind` is the schema's own. */
export const clipAuditFields = <E extends { readonly kind: string }>(event: E): E => {
  let clipped: Record<string, unknown> | undefined
  for (const [key, value] of Object.entries(event) as Array<[string, unknown]>) {
    const bounded = typeof value === "string"
      ? clipAuditField(value)
      : Array.isArray(value) && value.some((v: unknown) => typeof v === "string" && v.length > AUDIT_FIELD_LIMIT)
      ? value.map((v: unknown) => (typeof v === "string" ? clipAuditField(v) : v))
      : value
    if (bounded !== value) (clipped ??= { ...event } as Record<string, unknown>)[key] = bounded
  }
  return (clipped ?? event) as E
}
