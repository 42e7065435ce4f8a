/**
 * The package as a user installs it: packed with `npm pack` (whose `prepack` builds `dist/` and puts the published
 * package.json in place), installed with
 * its production dependencies into a fresh ES module project beside the peers the README installs, and used
 * there as the README says on Node, Bun and Deno: every entry point imports, the README's own agent serves,
 * the `a2a-actors` command reads its card and load-tests it (`a2a bench`, and `benchmark` from the client entry),
 * the command and the load run by each runtime. See fresh-project.ts for how the install stays offline.
 */
import { execFile, spawn } from "node:child_process"
import { mkdtemp, readFile, readdir, rename, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { childEnv, installFresh, pack, type Packed } from "./fresh-project.ts"

const root = fileURLToPath(new URL("../..", import.meta.url))
const runtimes = ["node", "bun", "deno"] as const
type Runtime = (typeof runtimes)[number]
const bun = `${root}node_modules/bun/bin/bun.exe`
const deno = `${root}node_modules/deno/deno`

/** The README's programs that run to their end by themselves (examples/examples.test.ts checks what they print). */
const programs = ["client.ts", "workflow-agent.ts", "push-notifications.ts", "secured-agent.ts", "audit-chain.ts"]

let work: string
let project: string
let packed: Packed

/** The block of code of the README or a page of docs/ that starts with `first`. */
const readmeBlock = (readme: string, fence: string, first: string): string => {
  const start = readme.indexOf(`\`\`\`${fence}\n${first}`)
  if (start === -1) throw new Error(`neither the README nor docs/ has a ${fence} block starting with ${first}`)
  const body = start + fence.length + 4
  return readme.slice(body, readme.indexOf("```", body))
}

interface Ran {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs a command in the project to its end. */
const exec = (command: string, args: ReadonlyArray<string>, timeout = 60_000) =>
  new Promise<Ran>((resolve) => {
    execFile(command, [...args], { cwd: project, env: childEnv(), timeout }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : null, stdout, stderr }))
  })

/** How each runtime runs a file of the project, and the `a2a` command. */
const runFile: Record<Runtime, (file: string) => [string, Array<string>]> = {
  node: (file) => [process.execPath, [file]],
  bun: (file) => [bun, [file]],
  // The flags the README gives.
  deno: (file) => [deno, ["run", "--allow-net", "--allow-env", "--unstable-no-legacy-abort", file]]
}
/** The command as the README runs it on each runtime. */
const a2a: Record<Runtime, (args: ReadonlyArray<string>) => Promise<Ran>> = {
  // The installed bin, through its shebang, as `npx a2a-actors` runs it.
  node: (args) => exec(join(project, "node_modules/.bin/a2a-actors"), args),
  bun: (args) => exec(bun, ["x", "--bun", "a2a-actors", ...args]),
  deno: (args) => exec(deno, ["run", "--allow-net", "npm:a2a-actors", ...args])
}

/** Starts the README's agent for `runtime`; resolves with its URL once it listens. */
const serve = (runtime: Runtime) =>
  new Promise<{ url: string; stop: () => Promise<number | null> }>((resolve, reject) => {
    const [command, args] = runFile[runtime](`agent-${runtime}.ts`)
    const child = spawn(command, args, { cwd: project, env: { ...childEnv(), PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] })
    const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)))
    let output = ""
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`the ${runtime} agent did not start:\n${output}`))
    }, 30_000)
    const onData = (data: Buffer) => {
      output += data.toString()
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1]
      if (url !== undefined) {
        clearTimeout(timer)
        resolve({ url, stop: () => (child.kill("SIGTERM"), exited) })
      }
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", onData)
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`the ${runtime} agent exited (${code}) before listening:\n${output}`))
    })
  })

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "a2a-actors-package-"))
  project = join(work, "project")
  packed = await pack(root, work)
  await installFresh(root, packed, project, ["effect", "xstate", "@effect/platform-node", "@effect/sql-pg"])
  // The README's set-up and agents, as written there.
  const pages = ["README.md", ...(await readdir(join(root, "docs"))).filter((f) => f.endsWith(".md")).map((f) => join("docs", f))]
  const readme = (await Promise.all(pages.map((page) => readFile(join(root, page), "utf8")))).join("\n")
  await writeFile(join(project, "deno.json"), readmeBlock(readme, "json", '{\n  "nodeModulesDir"'))
  for (const runtime of runtimes) {
    await writeFile(join(project, `agent-${runtime}.ts`), readmeBlock(readme, "ts", `// examples/hello-${runtime}.ts`))
  }
  for (const program of programs) {
    await writeFile(join(project, program), readmeBlock(readme, "ts", `// examples/${program}`))
  }
  // benchmark from the client entry point, against the URL given as the last argument.
  await writeFile(join(project, "bench.mjs"), [
    'import process from "node:process"',
    'import { benchmark } from "a2a-actors/client"',
    "const result = await benchmark(process.argv.at(-1), { workload: \"stream\", requests: 10, concurrency: 2 })",
    "console.log(JSON.stringify(result))"
  ].join("\n"))
  // TypeScript code that uses every entry point Bun and Deno projects use, needing no Node declarations.
  await writeFile(join(project, "types-web.ts"), [
    'import { A2AServer, Agent, messageText, type TaskContext } from "a2a-actors"',
    'import { benchmark, createA2AClient, userText } from "a2a-actors/client"',
    'import { Task, type Message } from "a2a-actors/schemas"',
    'import { taskMachine } from "a2a-actors/machines"',
    'import { serveBun } from "a2a-actors/bun"',
    'import { serveDeno } from "a2a-actors/deno"',
    "const agent = Agent.fromAsync({",
    '  card: { name: "T", description: "d", version: "1", capabilities: {}, defaultInputModes: [], defaultOutputModes: [], skills: [] },',
    "  execute: async (ctx) => { await ctx.complete(messageText(ctx.message)) }",
    "})",
    "export const start = async (): Promise<string> => {",
    "  const listening = await serveBun(await A2AServer.make(agent), { port: 0 })",
    '  const client = await createA2AClient({ url: listening.url })',
    '  const answer = await client.sendMessage(userText("hi"))',
    "  return answer.kind",
    "}",
    "export const all: ReadonlyArray<unknown> = [serveDeno, benchmark, Task, taskMachine]",
    "export type Used = TaskContext | Message"
  ].join("\n"))
  await writeFile(join(project, "tsconfig.web.json"), JSON.stringify({
    compilerOptions: { module: "nodenext", strict: true, noEmit: true, allowImportingTsExtensions: true },
    files: ["types-web.ts"]
  }))
  // The README's tsconfig.json, for the README's programs.
  await writeFile(join(project, "tsconfig.json"), /add a `tsconfig\.json` with\n`(\{[^`]*\})`/.exec(readme)![1]!)
  await writeFile(join(project, "postgres.mjs"), 'import { postgresStore } from "a2a-actors/postgres"\nconsole.log(typeof postgresStore)\n')
  await writeFile(join(project, "entries.mjs"), [
    `const names = ${JSON.stringify(Object.keys(packed.manifest.exports).filter((name) => name !== "./package.json").map((name) => name.replace(/^\./, "a2a-actors")))}`,
    "const exports = {}",
    "for (const name of names) exports[name] = Object.keys(await import(name)).sort()",
    "console.log(JSON.stringify(exports))"
  ].join("\n"))
}, 300_000)

afterAll(async () => {
  if (work !== undefined) await rm(work, { recursive: true, force: true })
})

describe("the packed tarball", () => {
  it("holds the built code, README, the docs pages, LICENSE and package.json, and no tests or test support", () => {
    const outside = packed.files.filter((file) =>
      !file.startsWith("dist/") && !/^docs\/[\w-]+\.md$/.test(file) && !["package.json", "README.md", "LICENSE"].includes(file))
    expect(outside).toEqual([])
    expect(packed.files).toEqual(expect.arrayContaining(["README.md", "LICENSE", "docs/agents.md", "dist/src/index.js", "dist/src/index.d.ts"]))
    expect(packed.files.filter((file) => /\.test\.|test-helper|[/.]testing[/.]|fixture|\.map$/.test(file))).toEqual([])
    expect(packed.files.filter((file) => !/\.(js|d\.ts)$/.test(file) && file.startsWith("dist/"))).toEqual([])
  })

  it("has a package.json without what only the repository's developers use: no scripts, devDependencies or allowScripts", async () => {
    const repository = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as Record<string, unknown>
    const devOnly = ["scripts", "devDependencies", "allowScripts"]
    expect(Object.keys(repository)).toEqual(expect.arrayContaining(devOnly))
    // Everything else is the repository's package.json as it is.
    expect(packed.manifest).toEqual(Object.fromEntries(Object.entries(repository).filter(([field]) => !devOnly.includes(field))))
  })

  it("is packed with the repository's package.json restored afterwards", async () => {
    expect(await readFile(join(packed.source, "package.json"), "utf8")).toBe(await readFile(join(root, "package.json"), "utf8"))
    expect(await readdir(packed.source)).not.toContain(".package.json.dev")
  })

  it("has no file that points at testing/, which is not shipped", async () => {
    const dist = join(project, "node_modules/a2a-actors/dist")
    const files = (await readdir(dist, { recursive: true })).filter((file) => /\.(js|d\.ts)$/.test(file))
    const pointing: Array<string> = []
    for (const file of files) if ((await readFile(join(dist, file), "utf8")).includes("testing/")) pointing.push(file)
    expect(files.length).toBeGreaterThan(50)
    expect(pointing).toEqual([])
  })

  it("installs the command as a2a-actors, the package's name, and as a2a", () => {
    expect(packed.manifest.bin).toEqual({ "a2a-actors": "./dist/src/cli/main.js", a2a: "./dist/src/cli/main.js" })
  })

  it("has a built file for every entry point, type declaration and command", () => {
    for (const target of Object.values(packed.manifest.exports)) {
      for (const file of typeof target === "string" ? [target] : [target.default, target.types]) {
        expect(packed.files, file).toContain(file.replace(/^\.\//, ""))
      }
    }
    for (const file of Object.values(packed.manifest.bin)) expect(packed.files).toContain(file.replace(/^\.\//, ""))
  })

  it("carries the Apache-2.0 license text that package.json names", async () => {
    expect(packed.manifest.license).toBe("Apache-2.0")
    const license = await readFile(join(project, "node_modules/a2a-actors/LICENSE"), "utf8")
    expect(license).toContain("Apache License\n                           Version 2.0, January 2004")
    expect(license).toContain("END OF TERMS AND CONDITIONS")
  })

  it("imports only what it declares: its dependencies and peer dependencies", async () => {
    const declared = new Set([...Object.keys(packed.manifest.dependencies), ...Object.keys(packed.manifest.peerDependencies)])
    const dist = join(project, "node_modules/a2a-actors/dist")
    const files = (await readdir(dist, { recursive: true })).filter((file) => file.endsWith(".js"))
    const imported = new Set<string>()
    for (const file of files) {
      // Without comments: TSDoc examples show imports of the package itself.
      const code = (await readFile(join(dist, file), "utf8")).replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "")
      for (const [, specifier] of code.matchAll(/(?:\bfrom|\bimport\(?)\s*["']([^"'.][^"']*)["']/g)) {
        if (!specifier!.startsWith("node:")) imported.add(specifier!.split("/").slice(0, specifier!.startsWith("@") ? 2 : 1).join("/"))
      }
    }
    expect(imported.size).toBeGreaterThan(3)
    expect([...imported].filter((name) => !declared.has(name))).toEqual([])
  })
})

describe.each(runtimes)("installed, on %s", (runtime) => {
  it("imports every entry point", async () => {
    const ran = await exec(...runFile[runtime]("entries.mjs"))
    expect(ran.stderr).toBe("")
    const exports = JSON.parse(ran.stdout) as Record<string, ReadonlyArray<string>>
    expect(exports["a2a-actors"]).toEqual(expect.arrayContaining(["A2AServer", "Agent", "Workflow", "TaskRuntime"]))
    expect(exports["a2a-actors/client"]).toEqual(expect.arrayContaining(["A2AClient", "createA2AClient", "discoverVerifiedCard"]))
    expect(exports["a2a-actors/schemas"]).toEqual(expect.arrayContaining(["Task", "Message", "AgentCard"]))
    expect(exports["a2a-actors/machines"]).toEqual(expect.arrayContaining(["taskMachine", "approvalMachine"]))
    expect(exports["a2a-actors/node"]).toEqual(expect.arrayContaining(["serveNode", "nodeDnsResolver", "nodePushTransport", "nodeClientCertificate"]))
    expect(exports["a2a-actors/bun"]).toEqual(expect.arrayContaining(["serveBun", "bunDnsResolver"]))
    expect(exports["a2a-actors/deno"]).toEqual(expect.arrayContaining(["serveDeno", "denoDnsResolver"]))
    expect(exports["a2a-actors/postgres"]).toEqual(expect.arrayContaining(["postgresStore", "makePostgresTaskStore", "postgresOptionsFromEnv"]))
  })

  it("serves the README's agent, whose card the a2a command reads and which a2a bench and benchmark load", async () => {
    const agent = await serve(runtime)
    try {
      const card = await a2a[runtime](["card", agent.url])
      expect(card.stderr).toBe("")
      expect(card.stdout).toContain("Hello 1.0.0 (A2A 1.0, 0.3)")
      expect(card.stdout).toMatch(/^Endpoint: http:\/\/127\.0\.0\.1:\d+\/ \(JSONRPC, A2A 1\.0\)$/m)
      expect(card.code).toBe(0)
      const sent = await a2a[runtime](["send", agent.url, "Ada"])
      expect(sent.stdout).toContain("completed")
      expect(sent.stdout).toContain("Hello, Ada!")

      // a2a bench, run by this runtime: every answer accepted.
      const bench = await a2a[runtime](["bench", agent.url, "--requests", "20", "--json"])
      expect(bench.stderr).toMatch(/^a2a bench: send over JSON-RPC \(A2A 1\.0\) to http:\/\/127\.0\.0\.1:\d+\/: /)
      expect(JSON.parse(bench.stdout)).toMatchObject({
        runtime: expect.stringMatching(new RegExp(`^${runtime} v?\\d`)),
        workload: "send",
        protocolVersion: "1.0",
        requests: { started: 20, ok: 20, failed: 0 },
        errors: []
      })
      expect(bench.code).toBe(0)
      // benchmark(url, options) from a2a-actors/client, on this runtime.
      const [command, args] = runFile[runtime]("bench.mjs")
      const api = await exec(command, [...args, agent.url])
      expect(api.stderr).toBe("")
      expect(JSON.parse(api.stdout)).toMatchObject({
        runtime: expect.stringMatching(new RegExp(`^${runtime} v?\\d`)),
        workload: "stream",
        requests: { started: 10, ok: 10, failed: 0 },
        errors: []
      })
    } finally {
      expect(await agent.stop()).toBe(0)
    }
  })

  it("runs a2a-actors --version", async () => {
    const version = await a2a[runtime](["--version"])
    expect(version.stdout).toContain(packed.manifest.version)
    expect(version.code).toBe(0)
  })

  it("refuses another effect at import, naming the supported range", async () => {
    const effectPackage = join(project, "node_modules/effect/package.json")
    const original = await readFile(effectPackage, "utf8")
    await writeFile(effectPackage, original.replace(/"version": "[^"]+"/, '"version": "4.2.0"'))
    try {
      const ran = await exec(...runFile[runtime]("entries.mjs"))
      expect(ran.code).not.toBe(0)
      expect(ran.stdout).toBe("")
      expect(ran.stderr).toContain("a2a-actors supports effect ~4.1.0, but effect 4.2.0 was loaded.")
    } finally {
      await writeFile(effectPackage, original)
    }
  })
})

/** The TypeScript a project may check with: this repository's 5.9, and 6 and 7, which `npm install -D typescript` installs since. */
const compilers = [["5.9", "typescript"], ["6.0", "typescript-6"], ["7.0", "typescript-7"]] as const

describe.each(compilers)("installed, type-checked with TypeScript %s", (version, compiler) => {
  // A full type-check of the installed package takes 10-15 s alone and several times that on a busy machine:
  // the test waits as long as the compiler is allowed to run.
  const checkMs = 180_000
  const tsc = (...args: ReadonlyArray<string>) => exec(process.execPath, [join(root, "node_modules", compiler, "bin/tsc"), ...args], checkMs)

  it(`is TypeScript ${version}`, async () => {
    expect((await tsc("--version")).stdout).toMatch(new RegExp(`^Version ${version.replace(".", "\\.")}\\.`))
  })

  it("the README's tsconfig.json checks the README's programs, on every entry point", async () => {
    const ran = await tsc("-p", "tsconfig.json")
    expect(ran.stdout + ran.stderr).toBe("")
    expect(ran.code).toBe(0)
  }, checkMs)

  it("entry points other than node and postgres need no @types/node", async () => {
    const types = join(project, "node_modules/@types")
    await rename(types, `${types}.away`)
    try {
      const ran = await tsc("-p", "tsconfig.web.json")
      expect(ran.stdout + ran.stderr).toBe("")
      expect(ran.code).toBe(0)
    } finally {
      await rename(`${types}.away`, types)
    }
  }, checkMs)
})

describe("installed, the short command name", () => {
  it("a2a runs the same command", async () => {
    const version = await exec(join(project, "node_modules/.bin/a2a"), ["--version"])
    expect(version.stdout).toBe(`a2a-actors ${packed.manifest.version}\n`)
    expect(version.code).toBe(0)
  })
})

describe("installed, the README's programs", () => {
  it.each(programs)("%s runs on Node as written", async (program) => {
    const ran = await exec(...runFile.node(program))
    expect(ran.stderr).toBe("")
    expect(ran.stdout).not.toBe("")
    expect(ran.code).toBe(0)
  })
})

describe("installed without the optional @effect/platform-node", () => {
  it("serveNode says what to install", async () => {
    const installed = join(project, "node_modules/@effect/platform-node")
    await rename(installed, `${installed}.away`)
    try {
      const ran = await exec(...runFile.node("agent-node.ts"))
      expect(ran.code).not.toBe(0)
      expect(ran.stderr).toContain(
        "serveNode needs @effect/platform-node ~4.1.0, an optional peer dependency of a2a-actors that is not installed: " +
          "install it (`npm install @effect/platform-node@~4.1.0`), or pass `web: true`"
      )
    } finally {
      await rename(`${installed}.away`, installed)
    }
  })
})

describe.each(runtimes)("installed without the optional @effect/sql-pg, on %s", (runtime) => {
  it("a2a-actors/postgres says what to install", async () => {
    const installed = join(project, "node_modules/@effect/sql-pg")
    await rename(installed, `${installed}.away`)
    try {
      const ran = await exec(...runFile[runtime]("postgres.mjs"))
      expect(ran.code).not.toBe(0)
      expect(ran.stdout).toBe("")
      expect(ran.stderr).toContain(
        "a2a-actors/postgres needs @effect/sql-pg ^4.0.5, an optional peer dependency of a2a-actors that is not installed: " +
          "install it (`npm install @effect/sql-pg@^4.0.5`)."
      )
    } finally {
      await rename(`${installed}.away`, installed)
    }
    expect(await exec(...runFile[runtime]("postgres.mjs"))).toMatchObject({ code: 0, stdout: "function\n" })
  })
})
