/**
 * `PUBLIC_URL=http://127.0.0.1:41243 npm run start:secured`: the secured reference server. It serves
 * the agent of `agents/secured.ts` with API keys, a signed card, push notifications and a
 * hash-chained audit file, configured from the environment:
 *
 * - `PUBLIC_URL` (required): the URL the card announces and the signature covers. Without it the
 *   server refuses to start (exit code 2): a signed card must not name whatever host a request used.
 * - `PORT` (default 41243; 0 picks a free port) and `HOST` (default 127.0.0.1): where it listens. It
 *   prints the bound URL, which differs from `PUBLIC_URL` behind a proxy.
 * - `PARTNER_KEY`, `ADMIN_KEY`: the API keys (header `X-API-Key`) of the principals `partner` and
 *   `admin`. Each one not given is generated at start and printed; keys given are never printed.
 * - `A2A_AUDIT_FILE` (default `a2a-audit.jsonl` in the working directory): the hash-chained JSON
 *   Lines audit. An existing file must verify; the chain then continues from its last line.
 * - `PUSH_ALLOW` (`<cidr,...>`): webhook addresses admitted besides public ones.
 *
 * The card is signed (ES256) with a key made at start; its public key is served as a JWKS at
 * `/.well-known/agent-card-jwks.json`, so `discoverVerifiedCard(url, { keys: new URL(jwksUrl) })`
 * verifies it.
 */
import { randomBytes } from "node:crypto"
import { readFile, open } from "node:fs/promises"
import { resolve } from "node:path"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { Effect } from "effect"
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from "jose"
import { nodeDnsResolver, serveNode, type NodeServable } from "../src/adapters/node.ts"
import { hashChainSink } from "../src/audit/hash-chain-sink.ts"
import { verifyChain } from "../src/audit/verify-chain.ts"
import { apiKeyAuthenticator } from "../src/auth/api-key.ts"
import { A2AServer } from "../src/server/a2a-server.ts"
import { adminSkill, apiKeyHeader, apiKeyScheme, principals, securedAgent } from "./agents/secured.ts"

/** Where the card's public key is served. */
const cardJwksPath = "/.well-known/agent-card-jwks.json"

/** Stops before serving anything: a configuration the server cannot run with safely. */
function refuse(message: string): never {
  process.stderr.write(`start:secured: ${message}\n`)
  process.exit(2)
}

const env = (name: string): string | undefined => {
  const value = process.env[name]
  return value === undefined || value === "" ? undefined : value
}

// --- configuration --------------------------------------------------------------------------------

const publicUrl = (() => {
  const raw = env("PUBLIC_URL") ??
    refuse("PUBLIC_URL is required: the card is signed, and it must name the URL clients use (e.g. PUBLIC_URL=http://127.0.0.1:41243)")
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return refuse(`PUBLIC_URL "${raw}" is not a URL`)
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") refuse(`PUBLIC_URL "${raw}" must be an http(s) URL`)
  if (url.search !== "" || url.hash !== "") refuse(`PUBLIC_URL "${raw}" must not carry a query or fragment`)
  return url.href.replace(/\/+$/, "")
})()

const port = (() => {
  const raw = env("PORT") ?? "41243"
  const n = Number(raw)
  return Number.isInteger(n) && n >= 0 && n <= 65535 ? n : refuse(`PORT "${raw}" is not a port number (0-65535)`)
})()

const generatedKey = () => randomBytes(24).toString("base64url")
const given = { partner: env("PARTNER_KEY"), admin: env("ADMIN_KEY") }
const keys = { partner: given.partner ?? generatedKey(), admin: given.admin ?? generatedKey() }
if (keys.partner === keys.admin) refuse("PARTNER_KEY and ADMIN_KEY must differ")

// --- audit: a hash chain appended to a file, continuing the chain already there --------------------

const auditPath = resolve(env("A2A_AUDIT_FILE") ?? "a2a-audit.jsonl")
const existing = await readFile(auditPath, "utf8").catch((e: NodeJS.ErrnoException) =>
  e.code === "ENOENT" ? "" : refuse(`cannot read A2A_AUDIT_FILE ${auditPath}: ${e.message}`))
const chain = await Effect.runPromise(verifyChain(existing.split("\n")))
if (!chain.ok) {
  refuse(`A2A_AUDIT_FILE ${auditPath} is not an intact audit chain (line ${chain.line}: ${chain.reason}, ${chain.detail}); move it aside or choose another file`)
}
const auditFile = await open(auditPath, "a").catch((e: Error) => refuse(`cannot open A2A_AUDIT_FILE ${auditPath}: ${e.message}`))
const audit = await Effect.runPromise(hashChainSink({ write: (line) => auditFile.appendFile(line, "utf8"), anchor: chain.head }))

// --- the card key: made at start, its public half served as a JWKS --------------------------------

const cardKey = await generateKeyPair("ES256")
const publicJwk = await exportJWK(cardKey.publicKey)
const kid = await calculateJwkThumbprint(publicJwk)
const jwks = { keys: [{ ...publicJwk, kid, alg: "ES256", use: "sig" }] }

// --- the server -----------------------------------------------------------------------------------

const server = await A2AServer.make(securedAgent, {
  publicUrl,
  authentication: { authenticators: { [apiKeyScheme]: apiKeyAuthenticator({ keys: principals(keys) }) } },
  audit,
  cardSigning: { key: cardKey.privateKey, kid, alg: "ES256", jku: `${publicUrl}${cardJwksPath}` },
  push: { resolveDns: nodeDnsResolver, allow: (env("PUSH_ALLOW") ?? "").split(",").filter(Boolean) }
})

const jwksHeaders = { "cache-control": "max-age=300", "access-control-allow-origin": "*" }
const isJwksRequest = (method: string, url: string) => method === "GET" && new URL(url, "http://localhost").pathname === cardJwksPath

/** The A2A server plus one route: the card key's JWKS. */
const servable: NodeServable = {
  handler: (request) =>
    isJwksRequest(request.method, request.url)
      ? Promise.resolve(new Response(JSON.stringify(jwks), { headers: { "content-type": "application/json", ...jwksHeaders } }))
      : server.handler(request),
  app: Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    isJwksRequest(request.method, request.url) ? Effect.succeed(HttpServerResponse.jsonUnsafe(jwks, { headers: jwksHeaders })) : server.app),
  dispose: server.dispose
}

const listening = await serveNode(servable, { port, host: env("HOST") ?? "127.0.0.1" })

const shown = (role: "partner" | "admin", variable: string) =>
  given[role] === undefined ? `${keys[role]} (generated; set ${variable} to choose it)` : `from ${variable}`
const keyFor = (role: "partner" | "admin", variable: string) => (given[role] === undefined ? keys[role] : `$${variable}`)
const cli = "npx tsx src/cli/main.ts"
process.stdout.write([
  `Secured agent listening on ${listening.url}`,
  `  card:         ${listening.url}/.well-known/agent-card.json (announces ${publicUrl}/)`,
  `  card key:     ES256, kid ${kid}; JWKS at ${listening.url}${cardJwksPath}`,
  `  push JWKS:    ${listening.url}/.well-known/jwks.json`,
  `  auth header:  ${apiKeyHeader}`,
  `  partner key:  ${shown("partner", "PARTNER_KEY")}`,
  `  admin key:    ${shown("admin", "ADMIN_KEY")}; the only key for skill "${adminSkill}"`,
  `  audit file:   ${auditPath} (hash-chained JSON Lines${chain.count > 0 ? `, continuing at seq ${chain.head.seq + 1}` : ""})`,
  "Try it:",
  `  ${cli} card ${publicUrl}`,
  `  ${cli} send ${publicUrl} "hello" --header "${apiKeyHeader}: ${keyFor("partner", "PARTNER_KEY")}"`,
  `  ${cli} send ${publicUrl} "rotate the logs" --skill ${adminSkill} --header "${apiKeyHeader}: ${keyFor("admin", "ADMIN_KEY")}"`,
  `  ${cli} send ${publicUrl} "hello"        # no key: refused with 401`,
  ""
].join("\n"))

const stop = () =>
  void listening.close({ graceMs: 1_000 })
    .then(() => auditFile.close())
    .then(() => process.exit(0))
process.once("SIGINT", stop)
process.once("SIGTERM", stop)
