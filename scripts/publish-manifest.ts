/**
 * The package.json users install: this repository's, without what only its developers use (scripts,
 * devDependencies, allowScripts). npm packs the package.json it finds on disk, so `npm pack` runs
 * `clean` as its last `prepack` step (after the build) and `restore` as `postpack`, putting the
 * developers' manifest back.
 *
 * `npm publish` from this directory is refused (`refuse-directory-publish`, its `prepublishOnly`): npm
 * re-reads package.json after `postpack` and would send the developers' manifest to the registry beside
 * the clean tarball. Publish the packed tarball instead: `npm pack`, then `npm publish a2a-actors-<version>.tgz`.
 *
 * Usage: `node scripts/publish-manifest.ts clean|restore|refuse-directory-publish` in the repository root.
 *
 * @module
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import process from "node:process"

/** Fields of package.json that only this repository's developers use. */
const devOnlyFields = ["scripts", "devDependencies", "allowScripts"] as const

/** The developers' manifest while the clean one is on disk. */
const backup = ".package.json.dev"

/** `manifest` without the developer-only fields. */
const publishedManifest = (manifest: Readonly<Record<string, unknown>>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(manifest).filter(([field]) => !(devOnlyFields as ReadonlyArray<string>).includes(field)))

const fail = (message: string): never => {
  process.stderr.write(`publish-manifest: ${message}\n`)
  process.exit(1)
}

const clean = () => {
  if (existsSync(backup)) {
    fail(`${backup} exists: an earlier pack stopped before restoring it. Check it, then \`mv ${backup} package.json\`.`)
  }
  const text = readFileSync("package.json", "utf8")
  renameSync("package.json", backup)
  writeFileSync("package.json", `${JSON.stringify(publishedManifest(JSON.parse(text) as Record<string, unknown>), null, 2)}\n`)
}

const restore = () => {
  if (!existsSync(backup)) fail(`${backup} is missing: nothing to restore`)
  renameSync(backup, "package.json")
}

const command = process.argv[2]
if (command === "clean") clean()
else if (command === "restore") restore()
else if (command === "refuse-directory-publish") {
  fail(
    "publish the packed tarball, whose package.json has no developer fields: `npm pack`, then " +
      "`npm publish a2a-actors-<version>.tgz` (published from the directory, npm would send the developers' " +
      "package.json to the registry)"
  )
} else fail(`unknown command ${command ?? "(none)"}: clean, restore or refuse-directory-publish`)
