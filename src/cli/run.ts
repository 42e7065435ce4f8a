/**
 * The `a2a` command as a function: `run(argv, io)` resolves to the exit code, so tests drive it with
 * their own output sinks and fetch, and the entry file stays a few lines.
 *
 * @module
 */
import { Cause, Data, Effect, Exit, Schema, Stream } from "effect"
import { isProtocolError, type ProtocolError } from "../../schemas/error-catalogue.ts"
import { SendMessageResult, type StreamResult } from "../../schemas/events.ts"
import { A2AClient, type A2AClientOptions, userText } from "../client/client.ts"
import { invalidAnswer, isLocalInvalidAnswer } from "../client/errors.ts"
import type { A2AClientTransportError } from "../client/errors.ts"
import { extensionFor } from "../client/extension-activation.ts"
import { authHeader, extensionsHeader } from "../client/interceptors.ts"
import { type ParsedArgs, parseArgs, USAGE } from "./args.ts"
import { runAudit } from "./audit-command.ts"
import { runBench } from "./bench-command.ts"
import { fromV1State, taskStateNames } from "../../schemas/v1/enums.ts"
import type { ListTasksParams } from "../../schemas/list-tasks.ts"
import { formatCard, formatSendResult, formatTask, formatTaskList } from "./format.ts"
import { streamPrinter } from "./stream-printer.ts"
import { forTerminal, terminalText } from "./terminal-text.ts"
import { packageVersion } from "./version.ts"

/** Where the command writes, and the fetch it uses. */
export interface CliIo {
  readonly stdout: { readonly write: (text: string) => unknown }
  /** `isTTY` (as on `process.stderr`) turns on `bench`'s live progress line. */
  readonly stderr: { readonly write: (text: string) => unknown; readonly isTTY?: boolean }
  /** Defaults to the global fetch. */
  readonly fetch?: typeof globalThis.fetch
}

/** The documented exit codes. */
export const ExitCode = {
  Ok: 0,
  AgentError: 1,
  Usage: 2,
  Transport: 3,
  InvalidAnswer: 4
} as const

const clientOptions = (args: ParsedArgs, io: CliIo): A2AClientOptions => ({
  headers: args.headers,
  ...(args.protocol === undefined ? {} : { protocolVersion: args.protocol }),
  interceptors: [
    ...(args.token === undefined ? [] : [authHeader({ token: args.token })]),
    ...(args.extensions.length === 0 ? [] : [extensionsHeader(args.extensions)])
  ],
  ...(io.fetch === undefined ? {} : { fetch: io.fetch }),
  ...(args.timeoutMs === undefined ? {} : { timeoutMs: args.timeoutMs })
})

const json = (value: unknown, pretty: boolean) => `${JSON.stringify(value, null, pretty ? 2 : undefined)}\n`

/** `url` resolved against `base` (a card may name its interfaces relative to itself). */
const resolved = (url: string, base: string): string => {
  try {
    return new URL(url, base).href
  } catch {
    return url
  }
}

/** The model's task states, and 1.0's names of them, as `--status` takes them. */
const modelStates: ReadonlyArray<string> = ["submitted", "working", "input-required", "completed", "canceled", "failed", "rejected", "auth-required"]

/** The ListTasks params of `a2a list`; `--status` was checked by {@link checkList}. */
const listParams = (args: ParsedArgs): ListTasksParams => {
  const { status, pageSize, pageToken, since, artifacts } = args.list
  const state = status === undefined ? undefined : (taskStateNames as ReadonlyArray<string>).includes(status) ? fromV1State(status as never) : status
  return {
    ...(args.contextId === undefined ? {} : { contextId: args.contextId }),
    ...(state === undefined ? {} : { status: state as NonNullable<ListTasksParams["status"]> }),
    ...(pageSize === undefined ? {} : { pageSize }),
    ...(pageToken === undefined ? {} : { pageToken }),
    ...(args.historyLength === undefined ? {} : { historyLength: args.historyLength }),
    ...(since === undefined ? {} : { statusTimestampAfter: since }),
    ...(artifacts ? { includeArtifacts: true } : {})
  }
}

/** Why the `list` options cannot be sent, if they cannot. */
const checkList = (args: ParsedArgs): string | undefined => {
  const { status, since } = args.list
  if (status !== undefined && !modelStates.includes(status) && !(taskStateNames as ReadonlyArray<string>).slice(1).includes(status)) {
    return `--status expects a task state (${modelStates.join(", ")}), got "${status.length > 40 ? `${status.slice(0, 39)}…` : status}"`
  }
  if (since !== undefined && Number.isNaN(Date.parse(since))) return `--since expects an ISO 8601 time such as 2026-01-01T00:00:00Z, got "${since.length > 40 ? `${since.slice(0, 39)}…` : since}"`
  return undefined
}

/** A command line that can only be judged once the card is known (exit code 2). */
class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string }> {}

const isSendResult = Schema.is(SendMessageResult)

/** Runs the command for `args`, writing results as they come. */
const command = (args: ParsedArgs, io: CliIo) =>
  Effect.gen(function*() {
    const client = yield* A2AClient.make({ url: args.url }, clientOptions(args, io))
    // Human output goes through `forTerminal` (see terminal-text.ts): whatever the agent sent is printed escaped.
    const out = <A>(value: A, readable: (safe: A) => string) =>
      Effect.sync(() => io.stdout.write(args.json ? json(value, true) : `${readable(forTerminal(value))}\n`))
    const text = args.argument ?? ""
    const message = () => {
      const params = userText(text, {
        ...(args.taskId === undefined ? {} : { taskId: args.taskId }),
        ...(args.contextId === undefined ? {} : { contextId: args.contextId }),
        ...(args.historyLength === undefined ? {} : { configuration: { historyLength: args.historyLength } })
      })
      // Servers pick the skill (and its security requirement) from `metadata.skill`.
      return args.skill === undefined ? params : { ...params, message: { ...params.message, metadata: { skill: args.skill } } }
    }
    switch (args.command) {
      case "card": {
        // Relative interface URLs are shown as the client resolves them; every URL came from the agent.
        const interfaces = client.interfaces.map((i) => ({ ...i, url: resolved(i.url, client.endpoint) }))
        const connection = forTerminal({ endpoint: client.endpoint, transport: client.transport, version: client.protocolVersion, interfaces })
        return yield* out(client.card!, (card) => formatCard(card, connection))
      }
      case "list": {
        const page = yield* client.listTasks(listParams(args))
        return yield* out(page, formatTaskList)
      }
      case "send": {
        const result = yield* client.sendMessage(message())
        return yield* out(result, formatSendResult)
      }
      case "stream": {
        const events = boundedStream(client.streamMessage(message()), args.timeoutMs ?? defaultTimeoutMs, client.endpoint)
        if (args.json) return yield* Stream.runForEach(events, (event) => Effect.sync(() => io.stdout.write(json(event, false))))
        const printer = streamPrinter((chunk) => io.stdout.write(chunk))
        return yield* Stream.runForEach(events, (event) => Effect.sync(() => printer.event(forTerminal(event)))).pipe(
          Effect.ensuring(Effect.sync(printer.end))
        )
      }
      case "call": {
        // The extension is the card's declaration listing the method; --extension names it otherwise.
        const extension = extensionFor(client.card, text)
        if (extension === undefined && args.extensions.length === 0) {
          return yield* new UsageError({
            message: `the agent's card declares no extension with the method ${text} (in a capabilities.extensions ` +
              `entry's params.methods); name the extension with --extension <uri>`
          })
        }
        const result = yield* client.callExtension(text, args.params, extension === undefined ? {} : { extension })
        return yield* out(result, (safe) => (isSendResult(safe) ? formatSendResult(safe) : terminalText(JSON.stringify(result, null, 2), { multiline: true })))
      }
      case "get": {
        const task = yield* client.getTask({
          id: text,
          ...(args.historyLength === undefined ? {} : { historyLength: args.historyLength })
        })
        return yield* out(task, formatTask)
      }
      case "cancel": {
        const task = yield* client.cancelTask({ id: text })
        return yield* out(task, formatTask)
      }
    }
  })

type Failure = ProtocolError | A2AClientTransportError | UsageError

/** `--timeout` when none is given: the client's own request deadline. */
const defaultTimeoutMs = 30_000

/** Whether a stream may end after `event`: its final status update, a terminal Task, or a lone Message. */
const endsStream = (event: StreamResult): boolean => {
  switch (event.kind) {
    case "status-update":
      return event.final
    case "message":
      return true
    case "task":
      return ["completed", "canceled", "failed", "rejected"].includes(event.status.state)
    case "artifact-update":
      return false
  }
}

/**
 * The events of `a2a stream`, bounded: at most `idleMs` between two events (heartbeat comments do not count,
 * so a stream that only pings ends), and a stream that closes before its final event fails. Both are answers
 * that are not valid A2A (exit 4).
 */
const boundedStream = <E>(events: Stream.Stream<StreamResult, E>, idleMs: number, url: string) =>
  Stream.suspend(() => {
    let last: StreamResult | undefined
    return events.pipe(
      Stream.timeoutOrElse({
        duration: idleMs,
        orElse: () => Stream.fail(invalidAnswer("IdleTimeout", `${url} sent no stream event for ${idleMs} ms`, { url })),
      }),
      Stream.tap((event) => Effect.sync(() => (last = event))),
      Stream.concat(Stream.suspend(() =>
        last !== undefined && endsStream(last)
          ? Stream.empty
          : Stream.fail(invalidAnswer("NoFinalEvent", "the stream ended before its final event", { url }))))
    )
  })

const describeFailure = (error: Failure, url: string): { readonly code: number; readonly text: string } => {
  if (error._tag === "UsageError") return { code: ExitCode.Usage, text: error.message }
  if (error._tag === "A2AClientTransportError") {
    const hint = error.reason === "Unreachable" ? " Is the agent running at that address?" : ""
    return { code: ExitCode.Transport, text: `${error.message}.${hint}` }
  }
  if (isLocalInvalidAnswer(error)) {
    return { code: ExitCode.InvalidAnswer, text: `${url} did not answer as an A2A agent: ${error.message}` }
  }
  return { code: ExitCode.AgentError, text: `the agent answered with error ${error.code} (${error._tag}): ${error.message}` }
}

const errorJson = (error: Failure) => ({
  error: {
    type: error._tag,
    message: error.message,
    ...(error._tag === "UsageError"
      ? {}
      : error._tag === "A2AClientTransportError"
      ? { reason: error.reason, ...(error.status === undefined ? {} : { status: error.status }) }
      : { code: error.code, ...(error.data === undefined ? {} : { data: error.data }) })
  }
})

/**
 * Runs `a2a` with `argv` (the arguments after the script name) and resolves to the exit code.
 *
 * @example
 * ```ts
 * const code = await run(["send", "http://127.0.0.1:8080", "hello", "--json"], { stdout, stderr })
 * ```
 */
export const run = async (argv: ReadonlyArray<string>, io: CliIo): Promise<number> => {
  const parsed = parseArgs(argv)
  if (parsed._tag === "Help") {
    io.stdout.write(USAGE)
    return ExitCode.Ok
  }
  if (parsed._tag === "Version") {
    io.stdout.write(`${packageVersion()}\n`)
    return ExitCode.Ok
  }
  if (parsed._tag === "Audit") return runAudit(parsed.args, io)
  if (parsed._tag === "Usage") {
    io.stderr.write(argv.length === 0 ? USAGE : `a2a: ${parsed.message}\nRun "a2a --help" for usage.\n`)
    return ExitCode.Usage
  }
  const args = parsed.args
  if (args.command === "bench") return runBench(args, io)
  const listProblem = args.command === "list" ? checkList(args) : undefined
  if (listProblem !== undefined) {
    io.stderr.write(`a2a: ${listProblem}\nRun "a2a --help" for usage.\n`)
    return ExitCode.Usage
  }
  const exit = await Effect.runPromiseExit(command(args, io))
  if (Exit.isSuccess(exit)) return ExitCode.Ok
  const failure = Cause.findErrorOption(exit.cause)
  if (
    failure._tag === "Some" &&
    (isProtocolError(failure.value) || failure.value._tag === "A2AClientTransportError" || failure.value._tag === "UsageError")
  ) {
    const { code, text } = describeFailure(failure.value, args.url)
    io.stderr.write(args.json ? json(errorJson(failure.value), false) : `a2a: ${terminalText(text)}\n`)
    return code
  }
  io.stderr.write(`a2a: unexpected failure: ${terminalText(Cause.pretty(exit.cause), { multiline: true })}\n`)
  return ExitCode.AgentError
}
