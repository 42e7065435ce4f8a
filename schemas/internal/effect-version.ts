/**
 * Imported first by every entry point that loads `effect`: stops the import with a message naming the
 * supported range when the `effect` it would use is another version (see `peer-version.ts`).
 *
 * @module
 */
import effectPackage from "effect/package.json" with { type: "json" }
import { requirePeer } from "./peer-version.ts"

requirePeer("effect", effectPackage.version)
