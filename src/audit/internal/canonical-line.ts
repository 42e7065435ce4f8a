/**
 * The one text form of an audit record, shared by the sinks that write it and the verifier that
 * checks it: RFC 8785 canonical JSON, except that a lone UTF-16 surrogate (which RFC 8785 has no
 * form for) is written as its `\udxxx` escape.
 *
 * Escaping rather than replacing keeps the record exact: a request whose id or method holds a lone
 * surrogate is recorded as sent, two different ones stay distinguishable, and the line is ASCII
 * there, so it survives a UTF-8 file unchanged and hashes the same when read back.
 *
 * @module
 */
import { canonicalize } from "../../card/canonicalize.ts"

/** The canonical JSON text of an audit record (no trailing newline). */
export const canonicalRecord = (value: unknown): string => canonicalize(value, { loneSurrogates: "escape" })
