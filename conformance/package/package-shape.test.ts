/**
 * The published shape: npm's `exports` map and deno.json's exports name the same entry points,
 * each pointing at the same source module; every TypeScript block of the README is a whole example
 * file that imports only packages and that examples/examples.test.ts runs (so is every block of the
 * pages under docs/); and the README installs
 * the peer dependencies in the ranges package.json declares.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { packageName, packageVersionNumber } from "../../src/cli/version.ts"

const root = fileURLToPath(new URL("../..", import.meta.url))
const read = (path: string) => readFileSync(`${root}${path}`, "utf8")
const pkg = JSON.parse(read("package.json")) as {
  version: string
  exports: Record<string, string | { default: string; types: string }>
  bin: Record<string, string>
  peerDependencies: Record<string, string>
}
const deno = JSON.parse(read("deno.json")) as { exports: Record<string, string> }

/** `./dist/src/client/index.js` is built from `./src/client/index.ts`. */
const sourceOf = (built: string) => built.replace(/^\.\/dist\//, "./").replace(/\.js$/, ".ts")

describe("package entry points", () => {
  const npmEntries = Object.entries(pkg.exports).filter(([name]) => name !== "./package.json")

  it("npm and deno export the same names", () => {
    expect(npmEntries.map(([name]) => name).sort()).toEqual(Object.keys(deno.exports).sort())
  })

  it("each name points at the same source module, which exists", () => {
    for (const [name, target] of npmEntries) {
      if (typeof target === "string") throw new Error(`${name} has no conditions`)
      expect(sourceOf(target.default), name).toBe(deno.exports[name])
      expect(target.types.replace(/\.d\.ts$/, ".js"), name).toBe(target.default)
      expect(existsSync(`${root}${deno.exports[name]}`), deno.exports[name]).toBe(true)
    }
  })

  it("the a2a-actors command, also installed as a2a, is built from src/cli/main.ts", () => {
    expect(pkg.bin).toEqual({ "a2a-actors": "./dist/src/cli/main.js", a2a: "./dist/src/cli/main.js" })
    expect(existsSync(`${root}${sourceOf(pkg.bin["a2a-actors"]!)}`)).toBe(true)
  })

  it("a2a --version names the version package.json and deno.json declare", () => {
    expect(packageName).toBe((pkg as { name?: string }).name)
    expect(packageVersionNumber).toBe(pkg.version)
    expect(packageVersionNumber).toBe((deno as { version?: string }).version)
  })
})

/** The README, CONFORMANCE.md and every page under docs/, by path. */
const pages = ["README.md", "CONFORMANCE.md", ...readdirSync(`${root}docs`).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)]

describe("code blocks of the README and docs/", () => {
  const readme = read("README.md")
  /** The package names the README uses, as the examples (inside the repository) spell them. */
  const asInRepo = (code: string) =>
    code
      .replace(/from "a2a-actors\/client"/g, 'from "../src/client/index.ts"')
      .replace(/from "a2a-actors\/(node|bun|deno)"/g, 'from "../src/adapters/$1.ts"')
      .replace(/from "a2a-actors\/(schemas|machines)"/g, 'from "../$1/index.ts"')
      .replace(/from "a2a-actors\/postgres"/g, 'from "../src/store/postgres/index.ts"')
      .replace(/from "a2a-actors"/g, 'from "../src/index.ts"')
  const blocksOf = (text: string) => [...text.matchAll(/```ts\n(\/\/ (examples\/[\w/.-]+\.ts)[^\n]*\n[\s\S]*?)```/g)]
  const all = pages.flatMap((page) => blocksOf(read(page)).map((block) => ({ page, body: block[1]!, file: block[2]! })))

  it("has code blocks taken from the examples", () => {
    expect(all.length).toBeGreaterThanOrEqual(10)
    for (const page of pages) {
      const text = read(page)
      expect(text.match(/```ts\n/g)?.length ?? 0, `${page}: every ts block names its example file on its first line`).toBe(blocksOf(text).length)
    }
  })

  it("links only to pages and anchors that exist", () => {
    const anchors = new Map(pages.map((page) => [page, new Set([...read(page).matchAll(/^#{1,4} (.*)$/gm)].map(([, heading]) =>
      heading!.trim().toLowerCase().replace(/[^\w\- ]/g, "").replace(/ /g, "-")))]))
    for (const page of pages) {
      const dir = page.includes("/") ? page.slice(0, page.lastIndexOf("/") + 1) : ""
      for (const [, target] of read(page).matchAll(/\]\(((?!https?:|mailto:)[^)\s]+)\)/g)) {
        const [path, anchor] = target!.split("#") as [string, string | undefined]
        const resolved = path === "" ? page : new URL(path, `file:///${dir}`).pathname.slice(1)
        expect(existsSync(`${root}${resolved}`), `${page} links to ${target}`).toBe(true)
        if (anchor !== undefined && resolved.endsWith(".md")) {
          expect(anchors.get(resolved)?.has(anchor), `${page} links to ${target}`).toBe(true)
        }
      }
    }
  })

  for (const { page, body, file } of all) {
    it(`${page} shows all of ${file}, a program that runs in a project of your own`, () => {
      expect(body.match(/from "\.{1,2}\/[^"]*"/g), "imports only packages, no files of this repository").toBeNull()
      expect(asInRepo(body), "the whole file, imports to the end").toBe(read(file))
    })

    it(`runs ${file} (shown in ${page}) in examples/examples.test.ts`, () => {
      expect(read("examples/examples.test.ts")).toContain(`"${file}"`)
    })
  }

  it("installs the peer dependencies in the ranges package.json declares", () => {
    const peers = pkg.peerDependencies
    const installs = [...readme.matchAll(/^(?:npm install|bun add) a2a-actors (.*)$/gm)].map(([, rest]) => rest!.split(" "))
    expect(installs.length).toBe(3)
    for (const names of installs) {
      expect(names).toContain(`effect@${peers["effect"]}`)
      expect(names).toContain(`xstate@${peers["xstate"]}`)
    }
    expect(installs[0]).toContain(`@effect/platform-node@${peers["@effect/platform-node"]}`)
    const denoJson = JSON.parse(/```json\n(\{\n  "nodeModulesDir"[\s\S]*?)```/.exec(readme)![1]!) as { imports: Record<string, string> }
    expect(denoJson.imports["effect"]).toBe(`npm:effect@${peers["effect"]}`)
    expect(denoJson.imports["xstate"]).toBe(`npm:xstate@${peers["xstate"]}`)
    expect(denoJson.imports["a2a-actors"]).toBe(`npm:a2a-actors@^${pkg.version}`)
  })
})
