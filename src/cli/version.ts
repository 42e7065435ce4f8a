/**
 * The version `a2a --version` prints: the one in the package's own `package.json`, read at run time so
 * that it can never disagree with what was installed.
 *
 * @module
 */
import { readFileSync } from "node:fs"

// From src/cli/ (the source, run with tsx) and from dist/src/cli/ (the built command) to the package root.
const candidates = ["../../package.json", "../../../package.json"]

/** The package's name and version, e.g. `a2a-actors 0.1.0`, or says the version is unknown when its package.json cannot be read. */
export const packageVersion = (): string => {
  for (const candidate of candidates) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(candidate, import.meta.url), "utf8")) as { name?: unknown; version?: unknown }
      if (pkg.name === "a2a-actors" && typeof pkg.version === "string") return `${pkg.name} ${pkg.version}`
    } catch {
      // Not there (or not ours): try the next place.
    }
  }
  return "a2a-actors (version unknown)"
}
