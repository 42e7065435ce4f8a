/**
 * `a2a-actors audit verify <file>`: checks a hash-chained audit log (written by `hashChainSink`) with
 * `verifyChainAsync`, reading the file as a stream of lines, so a log of any size is checked in bounded memory.
 *
 * @module
 */
import { createReadStream } from "node:fs"
import { readFile } from "node:fs/promises"
import { verifyChainAsync, type ChainVerification } from "../audit/verify-chain.ts"
import type { AuditArgs } from "./args.ts"

/** Where the command writes. */
interface AuditIo {
  readonly stdout: { readonly write: (text: string) => unknown }
  readonly stderr: { readonly write: (text: string) => unknown }
}

/** The file's lines, split on `\n` only (a `\r` is part of a line, so a changed line ending is found). */
async function* linesOf(file: string): AsyncGenerator<string> {
  let rest = ""
  for await (const chunk of createReadStream(file, { encoding: "utf8" })) {
    const lines = (rest + (chunk as string)).split("\n")
    rest = lines.pop()!
    yield* lines
  }
  if (rest !== "") yield rest
}

const hmacKey = async (file: string): Promise<CryptoKey> =>
  crypto.subtle.importKey("raw", await readFile(file), { name: "HMAC", hash: "SHA-256" }, false, ["sign"])

const describe = (file: string, result: ChainVerification): string =>
  result.ok
    ? `${file}: intact, ${result.count} record${result.count === 1 ? "" : "s"}; head ${result.head.seq}:${result.head.hash}`
    : `${file}: broken at line ${result.line}: ${result.reason} (${result.detail})`

const reasonOf = (cause: unknown): string => {
  const error = cause as { readonly code?: unknown; readonly message?: unknown } | null
  return typeof error?.code === "string" ? error.code : String(error?.message ?? cause)
}

/** Runs `audit verify`; resolves to the exit code (0 intact, 1 broken, 2 a file it cannot read). */
export const runAudit = async (args: AuditArgs, io: AuditIo): Promise<number> => {
  let key: CryptoKey | undefined
  if (args.hmacKeyFile !== undefined) {
    try {
      key = await hmacKey(args.hmacKeyFile)
    } catch (cause) {
      io.stderr.write(`a2a: cannot read the HMAC key ${args.hmacKeyFile}: ${reasonOf(cause)}\n`)
      return 2
    }
  }
  let result: ChainVerification
  try {
    result = await verifyChainAsync(linesOf(args.file), {
      ...(args.expectedHead === undefined ? {} : { expectedHead: args.expectedHead }),
      ...(key === undefined ? {} : { hmacKey: key })
    })
  } catch (cause) {
    io.stderr.write(`a2a: cannot read ${args.file}: ${reasonOf((cause as { readonly cause?: unknown }).cause ?? cause)}\n`)
    return 2
  }
  io.stdout.write(args.json ? `${JSON.stringify(result, null, 2)}\n` : `${describe(args.file, result)}\n`)
  return result.ok ? 0 : 1
}
