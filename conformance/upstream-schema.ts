/**
 * Where the tests find the pinned upstream A2A 0.3.0 contract (`a2a.schema.json`, `specification.md`). It is
 * reference data kept beside the project, never copied into it: `$A2A_SCHEMA_DIR` when that is set, else
 * `../shared/a2a-0.3.0` from the project root.
 *
 * Every test that needs it goes through this module, so its absence is handled one way: on a developer's
 * clone the tests are registered and skipped with the reason (no generated test disappears), and in CI
 * (`CI=true`) the run fails (`upstream-schema.test.ts`) naming where the folder was expected.
 *
 * @module
 */
import { existsSync, readFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { beforeEach } from "vitest"

/** The environment variable that points the tests at another copy of the upstream folder. */
export const SCHEMA_DIR_VARIABLE = "A2A_SCHEMA_DIR"

const projectRoot = fileURLToPath(new URL("..", import.meta.url))

/** Where the folder is looked for when `A2A_SCHEMA_DIR` is not set. */
export const defaultUpstreamDir = path.resolve(projectRoot, "../shared/a2a-0.3.0")

/** The upstream folder, found or not. */
export type UpstreamSchema =
  | {
    readonly present: true
    readonly dir: string
    /** The JSON Schema with the 93 definitions. */
    readonly schemaFile: string
    /** The prose specification, whose section numbers the fixtures cite. */
    readonly specFile: string
  }
  | {
    readonly present: false
    readonly dir: string
    /** Why the tests that need it do not run, naming the folder and the variable. */
    readonly reason: string
  }

type Environment = Readonly<Record<string, string | undefined>>

/** Looks for the upstream folder as the environment says (relative `A2A_SCHEMA_DIR` values resolve from the working directory). */
export const locateUpstreamSchema = (env: Environment = process.env): UpstreamSchema => {
  const configured = env[SCHEMA_DIR_VARIABLE]
  const dir = configured === undefined || configured === "" ? defaultUpstreamDir : path.resolve(configured)
  const schemaFile = path.join(dir, "a2a.schema.json")
  const specFile = path.join(dir, "specification.md")
  const missing = [schemaFile, specFile].filter((file) => !existsSync(file))
  if (missing.length === 0) return { present: true, dir, schemaFile, specFile }
  const where = configured === undefined || configured === ""
    ? `expected at ../shared/a2a-0.3.0 from the project root, or set ${SCHEMA_DIR_VARIABLE}`
    : `${SCHEMA_DIR_VARIABLE} points there`
  return {
    present: false,
    dir,
    reason: `the pinned upstream A2A 0.3.0 schema is absent: no ${missing.map((f) => path.basename(f)).join(" or ")} in ${dir} (${where})`
  }
}

/** Whether the run is a CI run, where the upstream folder must be present. */
export const isCi = (env: Environment = process.env): boolean => {
  const value = env["CI"]
  return value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false"
}

/** The upstream folder of this run. */
export const upstreamSchema: UpstreamSchema = locateUpstreamSchema()

/**
 * Call at the top of a `describe` whose tests need the upstream folder: when it is absent, each of them is
 * skipped with the reason. Register the same tests either way (generate them from
 * `upstreamDefinitionNames`, never from the schema file) and read the files only inside the tests.
 */
export const requireUpstreamSchema = (): void => {
  if (upstreamSchema.present) return
  const reason = upstreamSchema.reason
  beforeEach((context) => context.skip(reason))
}

let parsed: { readonly definitions: Readonly<Record<string, object>> } | undefined

/**
 * The parsed `a2a.schema.json`, read once per test file. Only for the bodies of tests guarded by
 * {@link requireUpstreamSchema}: it throws the reason when the folder is absent.
 */
export const readUpstreamSchema = (): { readonly definitions: Readonly<Record<string, object>> } => {
  if (!upstreamSchema.present) throw new Error(upstreamSchema.reason)
  parsed ??= JSON.parse(readFileSync(upstreamSchema.schemaFile, "utf8")) as { definitions: Record<string, object> }
  return parsed
}

/** The text of `specification.md`; like {@link readUpstreamSchema}, for guarded tests only. */
export const readUpstreamSpecification = (): string => {
  if (!upstreamSchema.present) throw new Error(upstreamSchema.reason)
  return readFileSync(upstreamSchema.specFile, "utf8")
}
