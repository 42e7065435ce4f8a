/**
 * The normative A2A 1.0 proto (`a2a.proto`, package `lf.a2a.v1`), read from `../shared/a2a-1.0.1` beside the
 * project (or `$A2A_PROTO_DIR`): reference data, never copied in. Tests that need it are skipped with the
 * reason where it is absent; in CI (`CI=true`) they fail instead.
 *
 * @module
 */
import { existsSync, readFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { beforeEach } from "vitest"

const projectRoot = fileURLToPath(new URL("../..", import.meta.url))

/** Where `a2a.proto` is looked for. */
export const protoFile = path.join(process.env["A2A_PROTO_DIR"] || path.resolve(projectRoot, "../shared/a2a-1.0.1"), "a2a.proto")

/** Whether the proto is there. */
export const protoPresent = existsSync(protoFile)

const reason = `the pinned A2A 1.0.1 proto is absent: no ${protoFile} (expected at ../shared/a2a-1.0.1 from the project root, or set A2A_PROTO_DIR)`

/** Call in a `describe` whose tests need the proto: skipped with the reason without it, failed in CI. */
export const requireProto = (): void => {
  if (protoPresent) return
  beforeEach((context) => {
    if (process.env["CI"] === "true") throw new Error(reason)
    context.skip(reason)
  })
}

/** The text of the proto. */
export const readProto = (): string => readFileSync(protoFile, "utf8")
