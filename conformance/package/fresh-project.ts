/**
 * A fresh ES module project with this package installed from its packed tarball, the way a user's project
 * gets it: the package, its production dependencies, and the peers a user installs beside it.
 *
 * No network is needed when npm's cache holds this repository's locked packages, as it does after `npm ci`:
 * the project's lockfile is written from this repository's own, so every package is the version tested here,
 * fetched by URL and integrity (`--prefer-offline` takes it from the cache). The lockfile places what the
 * tarball declares: a dependency the package forgot to declare is not installed, and its import fails.
 *
 * @module
 */
import { execFile } from "node:child_process"
import { createHash } from "node:crypto"
import { cp, mkdir, readFile, symlink, writeFile } from "node:fs/promises"
import { join, relative, sep } from "node:path"
import { promisify } from "node:util"

const run = promisify(execFile)

/** What a lockfile says about one installed package (npm's lockfile version 3). */
interface LockEntry {
  readonly version: string
  readonly dependencies?: Record<string, string>
  readonly optionalDependencies?: Record<string, string>
  readonly peerDependencies?: Record<string, string>
  readonly peerDependenciesMeta?: Record<string, { readonly optional?: boolean }>
  readonly [field: string]: unknown
}

/** The package.json fields the install reads. */
export interface PackageJson {
  readonly name: string
  readonly version: string
  readonly license: string
  readonly bin: Record<string, string>
  readonly exports: Record<string, string | { readonly types: string; readonly default: string }>
  readonly dependencies: Record<string, string>
  readonly peerDependencies: Record<string, string>
  readonly peerDependenciesMeta?: Record<string, { readonly optional?: boolean }>
  readonly engines?: Record<string, string>
}

/** A packed tarball. */
export interface Packed {
  readonly tarball: string
  /** Paths inside the tarball, without the leading `package/`. */
  readonly files: ReadonlyArray<string>
  /** The package.json inside the tarball. */
  readonly manifest: PackageJson
  /** The copy of the repository that was packed, as `npm pack` left it. */
  readonly source: string
}

/**
 * The environment of child processes: without npm's per-script variables (a test started by `npm test` must
 * not hand the outer run's package and lifecycle to the inner npm) and without `NODE_OPTIONS` loaders.
 */
export const childEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) =>
    !/^npm_(package|lifecycle)_/.test(name) && name !== "npm_config_local_prefix" && name !== "INIT_CWD" && name !== "NODE_OPTIONS"
  ))

const npm = (args: ReadonlyArray<string>, cwd: string) =>
  run("npm", [...args], { cwd, env: childEnv(), maxBuffer: 64 * 1024 * 1024 })

/** What a copy of the repository leaves out: installed and built files. */
const notCopied = new Set(["node_modules", "dist", ".git", ".package.json.dev"])

/**
 * Packs the repository at `root` into `dir` as `npm pack` does for a publish: its `prepack` builds `dist/` and
 * puts the published package.json in place, its `postpack` restores the developers' one. It packs a copy of
 * the repository (beside the tarball, sharing `root`'s node_modules), so that tests running meanwhile never
 * read the published manifest in place of the repository's. `source` is that copy, as `postpack` left it.
 */
export const pack = async (root: string, dir: string): Promise<Packed> => {
  const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as PackageJson
  const source = join(dir, "source")
  await cp(root, source, { recursive: true, filter: (from) => !notCopied.has(relative(root, from).split(sep)[0]!) && !from.endsWith(".tgz") })
  await symlink(join(root, "node_modules"), join(source, "node_modules"), "dir")
  await npm(["pack", "--pack-destination", dir, "--loglevel=error"], source)
  const tarball = join(dir, `${pkg.name}-${pkg.version}.tgz`)
  const { stdout } = await run("tar", ["-tzf", tarball], { maxBuffer: 16 * 1024 * 1024 })
  const files = stdout.split("\n").filter((line) => line !== "").map((line) => line.replace(/^package\//, ""))
  const manifest = JSON.parse((await run("tar", ["-xOzf", tarball, "package/package.json"])).stdout) as PackageJson
  return { tarball, files, manifest, source }
}

const lockPath = (parent: string, name: string) => `${parent === "" ? "" : `${parent}/`}node_modules/${name}`

/** Where Node would find `name` from the package at lock path `from`: its own node_modules, then its parents'. */
const locate = (lock: Record<string, LockEntry>, from: string, name: string): string | undefined => {
  for (let base = from; ; base = base.replace(/\/?node_modules\/(@[^/]+\/)?[^/]+$/, "")) {
    if (lock[lockPath(base, name)] !== undefined) return lockPath(base, name)
    if (base === "") return undefined
  }
}

const requiredPeers = (entry: LockEntry) =>
  Object.keys(entry.peerDependencies ?? {}).filter((name) => entry.peerDependenciesMeta?.[name]?.optional !== true)

/**
 * Installs `packed` into a new project at `dir` with the peers `peers` (names; their ranges are the package's),
 * production dependencies only.
 */
export const installFresh = async (
  root: string,
  packed: Packed,
  dir: string,
  peers: ReadonlyArray<string>
): Promise<void> => {
  const repoLock = (JSON.parse(await readFile(join(root, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> }).packages
  const { manifest } = packed
  const tarballSpec = `file:${packed.tarball}`
  const rootDependencies = {
    [manifest.name]: tarballSpec,
    ...Object.fromEntries(peers.map((name) => [name, manifest.peerDependencies[name]!]))
  }
  const integrity = `sha512-${createHash("sha512").update(await readFile(packed.tarball)).digest("base64")}`
  const packages: Record<string, unknown> = {
    "": { name: "fresh-project", dependencies: rootDependencies },
    [`node_modules/${manifest.name}`]: {
      version: manifest.version,
      resolved: tarballSpec,
      integrity,
      license: manifest.license,
      dependencies: manifest.dependencies,
      peerDependencies: manifest.peerDependencies,
      ...(manifest.peerDependenciesMeta === undefined ? {} : { peerDependenciesMeta: manifest.peerDependenciesMeta }),
      bin: manifest.bin,
      ...(manifest.engines === undefined ? {} : { engines: manifest.engines })
    }
  }
  // Every package the tarball and the chosen peers need, at the place and version this repository's lock has.
  const place = (from: string, name: string) => {
    const path = locate(repoLock, from, name)
    if (path === undefined) throw new Error(`${name} (needed by ${from || "the package"}) is not in package-lock.json`)
    if (packages[path] !== undefined) return
    const { dev, devOptional, peer, optional, ...entry } = repoLock[path]!
    const tail = path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length)
    const file = `${tail.split("/").at(-1)}-${entry.version}.tgz`
    packages[path] = { resolved: `https://registry.npmjs.org/${tail}/-/${file}`, ...entry }
    for (const next of [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {}).filter((n) => locate(repoLock, path, n) !== undefined), ...requiredPeers(entry)]) {
      place(path, next)
    }
  }
  for (const name of [...Object.keys(manifest.dependencies), ...peers]) place("", name)

  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, "package.json"), JSON.stringify({ name: "fresh-project", private: true, type: "module", dependencies: rootDependencies }, null, 2))
  await writeFile(join(dir, "package-lock.json"), JSON.stringify({ name: "fresh-project", lockfileVersion: 3, requires: true, packages }, null, 2))
  await npm(["ci", "--prefer-offline", "--omit=dev", "--no-audit", "--no-fund", "--loglevel=error"], dir)
}
