/**
 * Imported first by `a2a-actors/postgres`, after the `effect` check: stops the import with a message saying
 * what to install when `@effect/sql-pg` (an optional peer dependency) is missing, and naming the supported
 * range when it is another version (see `peer-version.ts`). It reads the package dynamically: a static import
 * of a missing package fails while modules are linked, before any check can run.
 *
 * @module
 */
import { requirePeer, supportedPeers } from "../../../schemas/internal/peer-version.ts"

const peer = "@effect/sql-pg"

/** Whether `cause` says that the package itself is not installed (rather than failing inside it). */
const notInstalled = (cause: unknown): boolean => {
  const message = cause instanceof Error ? cause.message : String(cause)
  const code = (cause as { readonly code?: unknown } | null)?.code
  return message.includes(peer) && (code === "ERR_MODULE_NOT_FOUND" || /cannot find (module|package)|not found/i.test(message))
}

const version = await import("@effect/sql-pg/package.json", { with: { type: "json" } }).then(
  (loaded) => loaded.default.version,
  (cause: unknown) => {
    if (!notInstalled(cause)) throw cause
    throw new Error(
      `a2a-actors/postgres needs ${peer} ${supportedPeers[peer]}, an optional peer dependency of a2a-actors that is ` +
        `not installed: install it (\`npm install ${peer}@${supportedPeers[peer]}\`).`,
      { cause }
    )
  }
)

requirePeer(peer, version)
