/**
 * The version `a2a --version` prints. It is a constant rather than a read of `package.json` at run time:
 * the built command then needs no file-system access (Deno would ask for a read permission) and no copy
 * of the manifest inside `dist/`. A package test keeps it equal to `package.json`'s version.
 *
 * @module
 */

/** The package's name. */
export const packageName = "a2a-actors"

/** The package's version; equal to `version` in package.json (checked by conformance/package). */
export const packageVersionNumber = "0.1.0"

/** The package's name and version, e.g. `a2a-actors 0.1.0`. */
export const packageVersion = (): string => `${packageName} ${packageVersionNumber}`
