/**
 * An echo and streaming agent served by the official JS SDK 0.3.14 (express 5) on 127.0.0.1, port 0: the
 * peer our client is tested against.
 *
 * What the agent does depends on the first word of the user's text:
 *
 * - `message <text>`: answers with a single Message `echo: <text>` (no task);
 * - `stream <w1> <w2> ...`: a Task, `working`, one artifact chunk per word (appended), then `completed`;
 * - `gated <w1> <w2> ...`: like `stream`, but after the first chunk waits until `openGates()` is called;
 * - `wait`: a Task that stays `working` until it is canceled;
 * - anything else: a Task completed at once with the status message `echo: <text>`.
 *
 * @module
 */
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import express from "express"
import type { AgentCard, Message, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from "@a2a-js/sdk"
import {
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  type RequestContext
} from "@a2a-js/sdk/server"
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express"

/** A running SDK agent. */
export interface SdkEchoAgent {
  /** Base URL (the card is at `/.well-known/agent-card.json`). */
  readonly url: string
  /** JSON-RPC endpoint named in the card. */
  readonly rpcUrl: string
  /** Lets every `gated` task waiting after its first chunk go on. */
  readonly openGates: () => void
  readonly close: () => Promise<void>
}

const textOf = (message: Message): string =>
  message.parts.map((p) => (p.kind === "text" ? p.text : "")).join(" ").trim()

let clock = Date.parse("2025-01-01T00:00:00.000Z")
/** Distinct, increasing timestamps, so that two statuses never compare equal by accident. */
const now = () => new Date(++clock).toISOString()

class EchoExecutor implements AgentExecutor {
  private readonly waiting = new Map<string, { readonly contextId: string; readonly resume: () => void }>()
  private gates: Array<() => void> = []

  openGates(): void {
    const gates = this.gates
    this.gates = []
    for (const open of gates) open()
  }

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId, userMessage } = context
    const text = textOf(userMessage)
    const [verb = "", ...words] = text.split(/\s+/)
    const status = (state: TaskStatusUpdateEvent["status"]["state"], final: boolean, reply?: string): TaskStatusUpdateEvent => ({
      kind: "status-update",
      taskId,
      contextId,
      final,
      status: {
        state,
        timestamp: now(),
        ...(reply === undefined
          ? {}
          : { message: { kind: "message", role: "agent", messageId: crypto.randomUUID(), taskId, contextId, parts: [{ kind: "text", text: reply }] } })
      }
    })
    if (verb === "message") {
      bus.publish({ kind: "message", role: "agent", messageId: crypto.randomUUID(), contextId, parts: [{ kind: "text", text: `echo: ${words.join(" ")}` }] })
      bus.finished()
      return
    }
    const task: Task = context.task ?? {
      kind: "task",
      id: taskId,
      contextId,
      status: { state: "submitted", timestamp: now() },
      history: [userMessage]
    }
    bus.publish(task)
    if (verb === "stream" || verb === "gated") {
      bus.publish(status("working", false))
      for (const [i, word] of words.entries()) {
        const chunk: TaskArtifactUpdateEvent = {
          kind: "artifact-update",
          taskId,
          contextId,
          artifact: { artifactId: "words", parts: [{ kind: "text", text: word }] },
          append: i > 0,
          lastChunk: i === words.length - 1
        }
        bus.publish(chunk)
        if (verb === "gated" && i === 0) await new Promise<void>((resolve) => this.gates.push(resolve))
      }
      bus.publish(status("completed", true, `streamed ${words.length} words`))
      bus.finished()
      return
    }
    if (verb === "wait") {
      bus.publish(status("working", false, "waiting until canceled"))
      await new Promise<void>((resume) => this.waiting.set(taskId, { contextId, resume }))
      return
    }
    bus.publish(status("completed", true, `echo: ${text}`))
    bus.finished()
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    const waiting = this.waiting.get(taskId)
    this.waiting.delete(taskId)
    const contextId = waiting?.contextId ?? ""
    bus.publish({ kind: "status-update", taskId, contextId, final: true, status: { state: "canceled", timestamp: now() } })
    bus.finished()
    waiting?.resume()
  }
}

/** Starts the agent; resolves once it listens. */
export const startSdkEchoAgent = async (): Promise<SdkEchoAgent> => {
  const card: AgentCard = {
    protocolVersion: "0.3.0",
    name: "SDK echo agent",
    description: "Echoes and streams, served by @a2a-js/sdk",
    url: "http://127.0.0.1/placeholder",
    preferredTransport: "JSONRPC",
    version: "0.3.14",
    capabilities: { streaming: true, pushNotifications: true },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "echo", name: "Echo", description: "Echoes text; streams words", tags: ["echo"] }]
  }
  const executor = new EchoExecutor()
  // Push configs are stored but never delivered: the tests exercise the config methods only.
  const noDelivery = { send: async () => {} }
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor, undefined, new InMemoryPushNotificationStore(), noDelivery)
  const app = express()
  app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: handler }))
  app.use("/a2a/jsonrpc", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }))
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s))
  })
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`
  card.url = `${url}/a2a/jsonrpc`
  return {
    url,
    rpcUrl: card.url,
    openGates: () => executor.openGates(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
