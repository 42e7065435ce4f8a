/**
 * The echo and streaming agent of `../sdk-server/echo-agent.ts`, served by the official JS SDK 1.3
 * (`a2a-js-sdk-v1`, i.e. `@a2a-js/sdk@1.3.0`, express 5) in A2A 1.0 only (its 0.3 compatibility off), over
 * JSON-RPC (`/a2a/jsonrpc`) and REST (`/a2a/rest`), on 127.0.0.1, port 0: the 1.0-only peer our client
 * and the `a2a` command are tested against. Push configs are stored and delivered by the SDK's own sender.
 *
 * What the agent does depends on the first word of the user's text:
 *
 * - `message <text>`: answers with a single Message `echo: <text>` (no task);
 * - `stream <w1> <w2> ...`: a Task, `working`, one artifact chunk per word (appended), then `completed`;
 * - `gated <w1> <w2> ...`: like `stream`, but after the first chunk waits until `openGates()` is called;
 * - `ask`: a Task waiting for input; the follow-up message completes it with `got: <text>`;
 * - `wait`: a Task that stays `working` until it is canceled;
 * - anything else: a Task completed at once with the status message `echo: <text>`.
 *
 * @module
 */
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import express from "express"
import { AgentCard, Message, Task, TaskArtifactUpdateEvent, TaskState, TaskStatusUpdateEvent } from "a2a-js-sdk-v1"
import {
  AgentEvent,
  type AgentExecutor,
  DefaultPushNotificationSender,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  type RequestContext
} from "a2a-js-sdk-v1/server"
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from "a2a-js-sdk-v1/server/express"

/** A running SDK 1.3 agent. */
export interface SdkV1EchoAgent {
  /** Base URL (the card is at `/.well-known/agent-card.json`). */
  readonly url: string
  /** The JSON-RPC interface named in the card. */
  readonly rpcUrl: string
  /** The REST interface named in the card. */
  readonly restUrl: string
  /** Every `A2A-Version` and extensions header the agent received, in order (`"-"` when absent). */
  readonly headersSeen: () => ReadonlyArray<{ readonly path: string; readonly version: string; readonly extensions: string }>
  /** Lets every `gated` task waiting after its first chunk go on. */
  readonly openGates: () => void
  readonly close: () => Promise<void>
}

const textOf = (message: Message): string =>
  message.parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join(" ").trim()

let clock = Date.parse("2025-01-01T00:00:00.000Z")
/** Distinct, increasing timestamps, so that two statuses never compare equal by accident. */
const now = () => new Date(++clock).toISOString()

class EchoExecutor implements AgentExecutor {
  private readonly waiting = new Map<string, { readonly contextId: string; readonly resume: () => void }>()
  private readonly asking = new Set<string>()
  private gates: Array<() => void> = []

  openGates(): void {
    const gates = this.gates
    this.gates = []
    for (const open of gates) open()
  }

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId, userMessage } = context
    const words = textOf(userMessage).split(/\s+/)
    const verb = words.shift() ?? ""
    const status = (state: TaskState, reply?: string) =>
      AgentEvent.statusUpdate(TaskStatusUpdateEvent.fromJSON({
        taskId,
        contextId,
        status: {
          state: TaskState[state],
          timestamp: now(),
          ...(reply === undefined ? {} : {
            message: { messageId: crypto.randomUUID(), role: "ROLE_AGENT", taskId, contextId, parts: [{ text: reply }] }
          })
        }
      }))
    if (verb === "message") {
      bus.publish(AgentEvent.message(Message.fromJSON({
        messageId: crypto.randomUUID(), role: "ROLE_AGENT", contextId, parts: [{ text: `echo: ${words.join(" ")}` }]
      })))
      bus.finished()
      return
    }
    const task = context.task ?? Task.fromJSON({ id: taskId, contextId, status: { state: "TASK_STATE_SUBMITTED", timestamp: now() } })
    bus.publish(AgentEvent.task({ ...task, history: [...task.history, userMessage] }))
    if (this.asking.delete(taskId)) {
      bus.publish(status(TaskState.TASK_STATE_COMPLETED, `got: ${textOf(userMessage)}`))
      bus.finished()
      return
    }
    if (verb === "stream" || verb === "gated") {
      bus.publish(status(TaskState.TASK_STATE_WORKING))
      for (const [i, word] of words.entries()) {
        bus.publish(AgentEvent.artifactUpdate(TaskArtifactUpdateEvent.fromJSON({
          taskId, contextId, artifact: { artifactId: "words", parts: [{ text: word }] }, append: i > 0, lastChunk: i === words.length - 1
        })))
        if (verb === "gated" && i === 0) await new Promise<void>((resolve) => this.gates.push(resolve))
      }
      bus.publish(status(TaskState.TASK_STATE_COMPLETED, `streamed ${words.length} words`))
      bus.finished()
      return
    }
    if (verb === "ask") {
      this.asking.add(taskId)
      bus.publish(status(TaskState.TASK_STATE_INPUT_REQUIRED, "what colour?"))
      bus.finished()
      return
    }
    if (verb === "wait") {
      bus.publish(status(TaskState.TASK_STATE_WORKING, "waiting until canceled"))
      await new Promise<void>((resume) => this.waiting.set(taskId, { contextId, resume }))
      return
    }
    bus.publish(status(TaskState.TASK_STATE_COMPLETED, `echo: ${[verb, ...words].join(" ")}`))
    bus.finished()
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    const waiting = this.waiting.get(taskId)
    this.waiting.delete(taskId)
    bus.publish(AgentEvent.statusUpdate(TaskStatusUpdateEvent.fromJSON({
      taskId, contextId: waiting?.contextId ?? "", status: { state: "TASK_STATE_CANCELED", timestamp: now() }
    })))
    bus.finished()
    waiting?.resume()
  }
}

/** The extension the card declares, whose method `echo/shout` is served on the JSON-RPC route by a stand-in. */
export const shoutExtension = "https://a2a-actors.dev/ext/echo-shout/v1"

/** Starts the agent; resolves once it listens. */
export const startSdkV1EchoAgent = async (): Promise<SdkV1EchoAgent> => {
  const executor = new EchoExecutor()
  const store = new InMemoryPushNotificationStore()
  const app = express()
  const seen: Array<{ path: string; version: string; extensions: string }> = []
  app.use((req, _res, next) => {
    seen.push({ path: req.path, version: req.get("a2a-version") ?? "-", extensions: req.get("a2a-extensions") ?? req.get("x-a2a-extensions") ?? "-" })
    next()
  })
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s))
  })
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`
  const card = AgentCard.fromJSON({
    name: "SDK 1.3 echo agent",
    description: "Echoes and streams, served by @a2a-js/sdk 1.3 in A2A 1.0",
    version: "1.3.0",
    supportedInterfaces: [
      { url: `${url}/a2a/jsonrpc`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      { url: `${url}/a2a/rest`, protocolBinding: "HTTP+JSON", protocolVersion: "1.0" }
    ],
    capabilities: {
      streaming: true,
      pushNotifications: true,
      extensions: [{ uri: shoutExtension, description: "echo/shout", params: { methods: ["echo/shout"] } }]
    },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "echo", name: "Echo", description: "Echoes text; streams words", tags: ["echo"] }]
  })
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor, undefined, store, new DefaultPushNotificationSender(store))
  // An extension method is not an A2A 1.0 method: the SDK has no route for it, so a stand-in answers it
  // (uppercased params.text), to show what the client sends.
  app.post("/a2a/jsonrpc", express.json(), (req, res, next) => {
    const body = req.body as { readonly id?: unknown; readonly method?: unknown; readonly params?: { readonly text?: unknown } }
    if (body.method !== "echo/shout") return next()
    res.json({ jsonrpc: "2.0", id: body.id, result: { shout: String(body.params?.text ?? "").toUpperCase() } })
  })
  app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: handler }))
  app.use("/a2a/jsonrpc", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }))
  app.use("/a2a/rest", restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }))
  return {
    url,
    rpcUrl: `${url}/a2a/jsonrpc`,
    restUrl: `${url}/a2a/rest`,
    headersSeen: () => [...seen],
    openGates: () => executor.openGates(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
