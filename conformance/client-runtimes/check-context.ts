/**
 * What every client check receives, and the helpers they share: short client timeouts, a scripted
 * agent served by the host runtime, extra servers on demand, and readers for streams and errors.
 *
 * @module
 */
import type { A2AClientOptions } from "../../src/client/index.ts"
import { invalidAnswerReason } from "../../src/client/index.ts"
import { InvalidAgentResponse } from "../../schemas/error-catalogue.ts"
import type { HostileAgent } from "../../testing/client/hostile-agent.ts"
import type { Serve, WebHandler } from "./serve.ts"

/** The context of one run: the runtime's server and the shared scripted agent on it. */
export interface ClientCheckContext {
  /** `node`, `bun` or `deno`. */
  readonly runtime: string
  /** The runtime's native server, for checks that need a server of their own. */
  readonly serve: Serve
  /** The shared scripted agent. */
  readonly agent: HostileAgent
  /** Its origin. */
  readonly url: string
}

/** Client settings small enough that every failure path finishes in well under a second. */
export const quick: A2AClientOptions = { timeoutMs: 2_000, idleTimeoutMs: 2_000, retries: 0, resume: { backoffMs: 10 } }

/** Runs `body` against a server of its own, closed afterwards whatever happens. */
export const withServer = async <A>(serve: Serve, handler: WebHandler, body: (url: string) => Promise<A>): Promise<A> => {
  const served = await serve(handler)
  try {
    return await body(served.url)
  } finally {
    await served.close()
  }
}

/** The client-side reason of an `InvalidAgentResponse`, or undefined for anything else. */
export const reasonOf = (e: unknown): string | undefined =>
  e instanceof InvalidAgentResponse ? invalidAnswerReason(e) : undefined

/** Reads a stream to its end or first failure. */
export const drain = async <A>(events: AsyncIterable<A>): Promise<{ readonly seen: Array<A>; readonly error: unknown }> => {
  const seen: Array<A> = []
  try {
    for await (const event of events) seen.push(event)
    return { seen, error: undefined }
  } catch (error) {
    return { seen, error }
  }
}

/** A fetch that counts the body chunks the runtime delivered, to prove a check saw split reads. */
export const countingFetch = (counter: { chunks: number }): typeof globalThis.fetch => async (input, init) => {
  const response = await globalThis.fetch(input, init)
  if (response.body === null) return response
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        counter.chunks++
        controller.enqueue(chunk)
      }
    })
  )
  return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers })
}
