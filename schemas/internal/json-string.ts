/** Strings that JSON writes as they are, between quotes: no quote, backslash, control or surrogate code unit. */
export const plainJsonString = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/

/** `JSON.stringify(s)` for a string, without the call for the common string that needs no escaping. */
export const jsonString = (s: string): string => (plainJsonString.test(s) ? `"${s}"` : JSON.stringify(s))
