/**
 * Imported first by `a2a-actors/postgres`, after the `effect` check: stops the import with a message naming
 * the supported range when the `@effect/sql-pg` it would use is another version (see `peer-version.ts`).
 *
 * @module
 */
import sqlPgPackage from "@effect/sql-pg/package.json" with { type: "json" }
import { requirePeer } from "../../../schemas/internal/peer-version.ts"

requirePeer("@effect/sql-pg", sqlPgPackage.version)
