/**
 * Command-line parsing of the `a2a` command: a small hand-written parser, since the grammar is six
 * commands and a handful of flags. A flag given to a command it does not apply to is a usage error, never
 * silently ignored.
 *
 * @module
 */

/** The commands of `a2a`. */
export const COMMANDS = ["card", "send", "stream", "get", "cancel", "list", "call", "bench", "audit"] as const
/** One command name. */
export type Command = (typeof COMMANDS)[number]

/** A parsed command line. */
export interface ParsedArgs {
  readonly command: Command
  readonly url: string
  /** The text of `send` / `stream`, the task id of `get` / `cancel`, the method of `call`. */
  readonly argument: string | undefined
  /** The params of `call`, parsed from its JSON argument. */
  readonly params: unknown
  readonly json: boolean
  readonly taskId: string | undefined
  readonly contextId: string | undefined
  /** The skill asked for in the message's `metadata.skill` (send, stream). */
  readonly skill: string | undefined
  /** `configuration.historyLength` of `send`, `historyLength` of `get`. */
  readonly historyLength: number | undefined
  readonly token: string | undefined
  readonly headers: Readonly<Record<string, string>>
  readonly extensions: ReadonlyArray<string>
  readonly timeoutMs: number | undefined
  /** `--protocol`: the A2A version to speak; none: as the card offers (1.0 first). */
  readonly protocol: "1.0" | "0.3" | undefined
  /** The filters and paging of `list`. */
  readonly list: ListFlags
  /** The options of `bench`, as given (see bench-args.ts). */
  readonly bench: BenchFlags
}

/** The options of `list` (A2A 1.0 ListTasks), besides `--context` and `--history`. */
export interface ListFlags {
  /** `--status`: a task state, as the model spells it (`working`) or as 1.0 does (`TASK_STATE_WORKING`). */
  readonly status: string | undefined
  readonly pageSize: number | undefined
  readonly pageToken: string | undefined
  /** `--since`: tasks whose status changed at or after this ISO 8601 time. */
  readonly since: string | undefined
  /** `--artifacts`: include each task's artifacts. */
  readonly artifacts: boolean
}

/** The raw `bench` options: flags with values, and the switches given. */
export interface BenchFlags {
  readonly values: ReadonlyMap<string, ReadonlyArray<string>>
  readonly switches: ReadonlySet<string>
  /** `--compare a.json b.json`: the two result files. */
  readonly compare: readonly [string, string] | undefined
}

/** `audit verify <file>`: check a hash-chained audit log (see audit-command.ts). */
export interface AuditArgs {
  readonly file: string
  readonly json: boolean
  /** `--head <seq>:<hash>`: the head recorded elsewhere; a log that ends before it is truncated. */
  readonly expectedHead: { readonly seq: number; readonly hash: string } | undefined
  /** `--hmac-key-file <file>`: the raw HMAC key the chain was written with. */
  readonly hmacKeyFile: string | undefined
}

/** The outcome of parsing: a command to run, a request for help or the version, or a usage error. */
export type ParseResult =
  | { readonly _tag: "Run"; readonly args: ParsedArgs }
  | { readonly _tag: "Audit"; readonly args: AuditArgs }
  | { readonly _tag: "Help" }
  | { readonly _tag: "Version" }
  | { readonly _tag: "Usage"; readonly message: string }

/** The help text, exit codes included. */
export const USAGE = `Usage: a2a <command> <url> [arguments] [options]

Talks to an A2A 1.0 or 0.3 agent: the first 1.0 interface its card lists, else its first 0.3
one (--protocol pins a version), over that interface's binding (JSON-RPC or REST; extension
methods always over JSON-RPC). <url> is the agent's base URL (its card is found at
/.well-known/agent-card.json, or the legacy /.well-known/agent.json) or the URL of the card
itself (ending in .json).

Commands:
  card   <url>                       show the agent card: security, interfaces with their A2A
                                     versions, extensions and their methods' params, skills
  send   <url> <text>                send a text message and print the answer
  stream <url> <text>                send a text message and print the events as they come
  get    <url> <taskId>              show a task
  cancel <url> <taskId>              cancel a task
  list   <url>                       list your tasks, newest first (A2A 1.0 ListTasks), one page
                                     at a time
  call   <url> <namespace/action> <json>
                                     call an extension method with JSON params, activating the
                                     extension whose card declaration lists the method (or its
                                     namespace) in params.methods; name it with --extension
                                     when the card lists none
  bench  <url>                       load-test the agent and print throughput, latency
                                     percentiles, errors by kind and a latency histogram
  bench --compare <a.json> <b.json>  the ratios between two results saved with bench --json
  audit verify <file>                check a hash-chained audit log (hashChainSink's JSON Lines):
                                     intact, or the first line that was changed, removed,
                                     inserted or reordered

Options:
  --json                    machine output: one JSON document (stream: one per line)
  --protocol <version>      speak A2A 1.0 or 0.3 (default: the card's first 1.0 interface, else 0.3)
  --task <id>               continue this task (send, stream)
  --context <id>            send within this context (send, stream); list only its tasks (list)
  --skill <id>              ask for this skill of the card: metadata.skill (send, stream)
  --history <n>             return at most the last n history messages (send, get, list)
  --token <token>           send "Authorization: Bearer <token>"
  --header "Name: value"    send an extra header (repeatable)
  --extension <uri>         activate an extension (A2A-Extensions in 1.0, X-A2A-Extensions in
                            0.3; repeatable)
  --timeout <ms>            request timeout in milliseconds (default 30000); for stream, also
                            the longest wait for the next event (heartbeats do not count)
  -h, --help                show this help
  -V, --version             show the version

Options of list:
  --status <state>          only tasks in this state (working, input-required, completed, ...)
  --since <time>            only tasks whose status changed at or after this ISO 8601 time
  --page-size <n>           tasks per page, 1 to 100 (the agent's default: 50)
  --page-token <token>      the page after the one that printed this token
  --artifacts               include each task's artifacts

Options of bench (only loopback targets unless --allow-remote; maxima in brackets):
  --workload <w>            send (blocking message/send, default), stream (message/stream,
                            every event read), resubscribe (stream cut after --drop-after
                            events, resumed with Last-Event-ID: no event missing or repeated)
  --transport <t>           jsonrpc, rest, or auto (default: the card's preferred binding)
  --concurrency <n>         requests in flight at most (default 10) [1000]
  --duration <time>         how long to send: 30s, 1500ms, 2m (default 10s) [10m]
  --requests <n>            how many requests; with --duration, whichever ends first [1000000]
  --rate <n>                requests per second at fixed times (open model: latency runs from
                            each request's scheduled time) [10000]
  --message <text>          the text to send (default "hello")
  --message-file <file>     a JSON A2A Message to send (its messageId is replaced each time)
  --numbered-chunks         each artifact's chunks carry consecutive integers: check the order
  --drop-after <n>          resubscribe: events to read before cutting the stream (default 2)
  --insecure                accept a TLS certificate that does not verify (self-signed)
  --allow-remote            allow a target that is not this machine
  --compare                 compare two results: bench --compare a.json b.json
  A live progress line is drawn on stderr when it is a terminal. Every answer is checked;
  only accepted ones count. --json prints the whole result as JSON.

Options of audit verify:
  --head <seq>:<hash>       the head kept elsewhere when the log was last known good: a log
                            that ends before it is reported truncated
  --hmac-key-file <file>    the raw HMAC key the chain was written with (hashChainSink's hmacKey)

Exit codes:
  0  success
  1  the agent answered with an A2A error (e.g. task not found); bench: some requests failed
  2  usage error
  3  transport error: agent unreachable, timeout, HTTP error status
  4  the answer is not valid A2A (not JSON, wrong shape, no agent card; a stream that ends
     before its final event, or sends no event for --timeout ms)
  audit verify: 0 the chain is intact, 1 it is broken, 2 usage error or a file it cannot read
`

/** The options of `bench` that take a value, and its switches. */
const BENCH_VALUES = ["--workload", "--transport", "--concurrency", "--duration", "--requests", "--rate", "--message", "--message-file", "--drop-after"]
const BENCH_SWITCHES = ["--numbered-chunks", "--insecure", "--allow-remote", "--compare"]

/** The options of `list` that take a value, and its switch. */
const LIST_VALUES = ["--status", "--since", "--page-size", "--page-token"]
const LIST_SWITCHES = ["--artifacts"]

/** The options of `audit verify`. */
const AUDIT_VALUES = ["--head", "--hmac-key-file"]

const FLAGS_WITH_VALUE = new Set([
  "--task", "--context", "--skill", "--history", "--token", "--header", "--extension", "--timeout", "--protocol",
  ...LIST_VALUES, ...BENCH_VALUES, ...AUDIT_VALUES
])
const SWITCHES = new Set([...BENCH_SWITCHES, ...LIST_SWITCHES])

/** The commands each command-specific flag applies to; the other flags apply to all. */
const APPLIES_TO: ReadonlyMap<string, ReadonlyArray<Command>> = new Map([
  ["--task", ["send", "stream"]],
  ["--context", ["send", "stream", "list"]],
  ["--skill", ["send", "stream"]],
  ["--history", ["send", "get", "list"]],
  ...[...LIST_VALUES, ...LIST_SWITCHES].map((flag): [string, ReadonlyArray<Command>] => [flag, ["list"]]),
  ...[...BENCH_VALUES, ...BENCH_SWITCHES].map((flag): [string, ReadonlyArray<Command>] => [flag, ["bench"]]),
  ...AUDIT_VALUES.map((flag): [string, ReadonlyArray<Command>] => [flag, ["audit"]])
])

const isCommand = (s: string | undefined): s is Command => (COMMANDS as ReadonlyArray<string>).includes(s ?? "")

const usage = (message: string): ParseResult => ({ _tag: "Usage", message })

const positiveInt = (flag: string, raw: string, allowZero: boolean): number | string => {
  const n = Number(raw)
  return Number.isInteger(n) && (allowZero ? n >= 0 : n > 0) ? n : `${flag} expects ${allowZero ? "a non-negative" : "a positive"} integer, got "${raw}"`
}

const missingArgument = (command: Command): string => {
  switch (command) {
    case "send":
    case "stream":
      return "the message text"
    case "call":
      return "the method, {namespace}/{action}"
    default:
      return "the task id"
  }
}

/** The params of `call`: a JSON object or array (JSON-RPC params are structured), or why not. */
const callParams = (raw: string | undefined): { readonly params: unknown } | string => {
  if (raw === undefined) return "call needs the params as JSON, e.g. '{\"taskId\":\"t-1\"}'"
  let params: unknown
  try {
    params = JSON.parse(raw)
  } catch {
    return `call's params are not JSON: ${raw.length > 60 ? `${raw.slice(0, 59)}…` : raw}`
  }
  return typeof params === "object" && params !== null ? { params } : "call's params must be a JSON object or array"
}

/** Parses `argv` (without the node and script paths). */
export const parseArgs = (argv: ReadonlyArray<string>): ParseResult => {
  const positional: Array<string> = []
  const values = new Map<string, Array<string>>()
  const switches = new Set<string>()
  let json = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === "-h" || arg === "--help") return { _tag: "Help" }
    if (arg === "-V" || arg === "--version") return { _tag: "Version" }
    if (arg === "--json") {
      json = true
      continue
    }
    if (SWITCHES.has(arg)) {
      switches.add(arg)
      continue
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1
    const flag = eq > 0 ? arg.slice(0, eq) : arg
    if (FLAGS_WITH_VALUE.has(flag)) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i]
      if (value === undefined) return usage(`${flag} needs a value`)
      values.set(flag, [...(values.get(flag) ?? []), value])
      continue
    }
    if (arg.startsWith("-") && arg !== "-") return usage(`unknown option ${arg}`)
    positional.push(arg)
  }
  const [command, url, argument, ...rest] = positional
  if (command === undefined) return usage("missing command")
  if (!isCommand(command)) return usage(`unknown command "${command}"`)
  if (command === "audit") return parseAudit(positional.slice(1), values, switches, json)
  let compare: readonly [string, string] | undefined
  if (command === "bench" && switches.has("--compare")) {
    if (url === undefined || argument === undefined || rest.length > 0) return usage("--compare needs two result files: bench --compare a.json b.json")
    compare = [url, argument]
  }
  if (url === undefined) return usage(`${command} needs the agent's URL`)
  if (compare === undefined && !/^https?:\/\//i.test(url)) return usage(`"${url}" is not an http(s) URL`)
  const onlyUrl = command === "card" || command === "bench" || command === "list"
  if (onlyUrl && compare === undefined && argument !== undefined) return usage(`${command} takes only the URL`)
  if (!onlyUrl && argument === undefined) return usage(`${command} needs ${missingArgument(command)}`)
  let params: unknown
  if (command === "call") {
    if (!/^[^/\s]+(\/[^/\s]+)+$/.test(argument!)) return usage(`call expects a method {namespace}/{action}, got "${argument}"`)
    const parsed = callParams(rest.shift())
    if (typeof parsed === "string") return usage(parsed)
    params = parsed.params
  }
  if (rest.length > 0) return usage(`unexpected argument "${rest[0]}" (quote text with spaces)`)
  for (const [flag, commands] of APPLIES_TO) {
    if ((values.has(flag) || switches.has(flag)) && !commands.includes(command)) {
      return usage(`${flag} does not apply to ${command} (it applies to ${commands.join(", ")})`)
    }
  }
  const headers: Record<string, string> = {}
  for (const header of values.get("--header") ?? []) {
    const colon = header.indexOf(":")
    if (colon <= 0) return usage(`--header expects "Name: value", got "${header}"`)
    headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim()
  }
  const last = (flag: string) => values.get(flag)?.at(-1)
  const history = last("--history")
  const historyLength = history === undefined ? undefined : positiveInt("--history", history, true)
  if (typeof historyLength === "string") return usage(historyLength)
  const timeout = last("--timeout")
  const timeoutMs = timeout === undefined ? undefined : positiveInt("--timeout", timeout, false)
  if (typeof timeoutMs === "string") return usage(timeoutMs)
  const protocol = last("--protocol")
  if (protocol !== undefined && protocol !== "1.0" && protocol !== "0.3") return usage(`--protocol expects 1.0 or 0.3, got "${protocol}"`)
  const size = last("--page-size")
  const pageSize = size === undefined ? undefined : positiveInt("--page-size", size, false)
  if (typeof pageSize === "string") return usage(pageSize)
  return {
    _tag: "Run",
    args: {
      command,
      url,
      argument,
      params,
      json,
      taskId: last("--task"),
      contextId: last("--context"),
      skill: last("--skill"),
      historyLength,
      token: last("--token"),
      headers,
      extensions: values.get("--extension") ?? [],
      timeoutMs,
      protocol,
      list: {
        status: last("--status"),
        pageSize,
        pageToken: last("--page-token"),
        since: last("--since"),
        artifacts: switches.has("--artifacts")
      },
      bench: { values, switches, compare }
    }
  }
}

/** `audit verify <file> [--head <seq>:<hash>] [--hmac-key-file <file>]`. */
const parseAudit = (
  positional: ReadonlyArray<string>,
  values: ReadonlyMap<string, ReadonlyArray<string>>,
  switches: ReadonlySet<string>,
  json: boolean
): ParseResult => {
  const [action, file, ...rest] = positional
  if (action !== "verify") return usage(action === undefined ? "audit needs an action: audit verify <file>" : `unknown audit action "${action}" (audit verify <file>)`)
  if (file === undefined) return usage("audit verify needs the audit log's file")
  if (rest.length > 0) return usage(`unexpected argument "${rest[0]}"`)
  for (const flag of [...values.keys(), ...switches]) {
    if (!AUDIT_VALUES.includes(flag)) return usage(`${flag} does not apply to audit`)
  }
  const head = values.get("--head")?.at(-1)
  let expectedHead: AuditArgs["expectedHead"]
  if (head !== undefined) {
    const match = /^(\d+):([0-9a-f]{64})$/.exec(head)
    if (match === null) return usage(`--head expects <seq>:<64 hex digits>, as audit verify prints it; got "${head.length > 80 ? `${head.slice(0, 79)}…` : head}"`)
    expectedHead = { seq: Number(match[1]), hash: match[2]! }
  }
  return { _tag: "Audit", args: { file, json, expectedHead, hmacKeyFile: values.get("--hmac-key-file")?.at(-1) } }
}
