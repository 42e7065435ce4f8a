/**
 * Who is calling. Authenticators produce a Principal before any task exists; tasks
 * belong to the principal that created them.
 */
export interface Principal {
  /** Stable identifier, compared for task ownership. */
  readonly id: string
  /** The security scheme name (from the card's `securitySchemes`) that authenticated it. */
  readonly scheme?: string
  /** Verified claims or attributes (JWT claims, certificate fields, ...). */
  readonly claims?: Readonly<Record<string, unknown>>
}

/** The principal of a request when the agent declares no security requirement. */
export const anonymous: Principal = { id: "anonymous" }
