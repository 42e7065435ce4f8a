/**
 * The suite runs on the Node the project pins: the `node` dev dependency, whose binary `npm test`,
 * `npm run` and `npx` put first on the PATH whatever Node started npm. A run on another Node (for
 * example `./node_modules/.bin/vitest` started straight from a shell, whose `#!/usr/bin/env node`
 * finds the system Node) would test a runtime the package does not claim, so it fails here, saying
 * which Node ran and how to run the pinned one.
 */
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../..", import.meta.url))
const pkg = JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { devDependencies: Record<string, string> }

const major = (version: string): number => Number(/^v?(\d+)\./.exec(version)?.[1])

describe(`test runtime: Node ${process.versions.node}`, () => {
  it("is the major version of the pinned node dev dependency", () => {
    const pinned = pkg.devDependencies["node"]
    expect(pinned, "package.json pins Node as the dev dependency `node`").toBeDefined()
    expect(
      major(process.versions.node),
      `tests run on Node ${process.versions.node}, the project pins Node ${pinned}: run them with \`npm test\` or \`npx vitest\` ` +
        "(both use node_modules/.bin/node), not ./node_modules/.bin/vitest from a shell"
    ).toBe(major(pinned!))
  })

  it("pins Node 24", () => {
    expect(major(pkg.devDependencies["node"] ?? "")).toBe(24)
  })
})
