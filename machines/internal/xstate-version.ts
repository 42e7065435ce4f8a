/**
 * Imported first by every entry point that loads `xstate`: stops the import with a message naming the
 * supported range when the `xstate` it would use is another version (see `schemas/internal/peer-version.ts`).
 *
 * @module
 */
import xstatePackage from "xstate/package.json" with { type: "json" }
import { requirePeer } from "../../schemas/internal/peer-version.ts"

requirePeer("xstate", xstatePackage.version)
