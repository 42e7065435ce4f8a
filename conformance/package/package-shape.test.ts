/**
 * The published shape: npm's `exports` map and deno.json's exports name the same entry points,
 * each pointing at the same source module, and the README's code blocks are the examples'
 * own code.
 */
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../..", import.meta.url))
const read = (path: string) => readFileSync(`${root}${path}`, "utf8")
const pkg = JSON.parse(read("package.json")) as { exports: Record<string, string | { default: string; types: string }>; bin: Record<string, string> }
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

  it("the a2a command is built from src/cli/main.ts", () => {
    expect(existsSync(`${root}${sourceOf(pkg.bin["a2a"]!)}`)).toBe(true)
  })
})

describe("README code blocks", () => {
  const readme = read("README.md")
  const blocks = [...readme.matchAll(/```ts\n\/\/ (examples\/[\w/.-]+\.ts)[^\n]*\n([\s\S]*?)```/g)]
  /** The package names the README uses, as the examples (inside the repository) spell them. */
  const asInRepo = (code: string) =>
    code
      .replace(/from "a2a-actors\/client"/g, 'from "SRC/client/index.ts"')
      .replace(/from "a2a-actors\/(node|bun|deno)"/g, 'from "SRC/adapters/$1.ts"')
      .replace(/from "a2a-actors"/g, 'from "SRC/index.ts"')

  it("has code blocks taken from the examples", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(10)
  })

  for (const [, file, body] of blocks) {
    it(`shows ${file} as it is`, () => {
      const source = read(file!).replace(/"(?:\.\.\/)+src\//g, '"SRC/')
      expect(source).toContain(asInRepo(body!).trimEnd())
    })
  }
})
