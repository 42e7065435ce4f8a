/**
 * An agent served by the official JS SDK 0.3.14's REST handler (express 5) on 127.0.0.1, port 0: the
 * REST server our mapping is tested against.
 *
 * What the agent does depends on the first word of the user's text:
 *
 * - `message <text>`: answers with a single Message `echo: <text>` (no task);
 * - `stream <w1> <w2> ...`: a Task, `working`, one artifact chunk per word, then `completed`;
 * - `parts`: a Task whose artifact holds every part of the user's message, then `completed`;
 * - `wait`: a Task that stays `working` until it is canceled;
 * - anything else: a Task completed at once with the status message `echo: <text>`.
 *
 * @module
 */
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import express from "express"
import type { AgentCard, Message, Task, TaskStatusUpdateEvent } from "@a2a-js/sdk"
import {
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  type RequestContext
} from "@a2a-js/sdk/server"
import { restHandler, UserBuilder } from "@a2a-js/sdk/server/express"

/** A running SDK REST agent. */
export interface SdkRestAgent {
  /** The REST base URL (`/v1/...` goes after it). */
  readonly url: string
  readonly close: () => Promise<void>
}

const textOf = (message: Message): string =>
  message.parts.map((p) => (p.kind === "text" ? p.text : "")).join(" ").trim()

class RestEchoExecutor implements AgentExecutor {
  private readonly waiting = new Map<string, { readonly contextId: string; readonly resume: () => void }>()

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
        timestamp: new Date().toISOString(),
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
    const task: Task = { kind: "task", id: taskId, contextId, status: { state: "submitted" }, history: [userMessage] }
    bus.publish(task)
    if (verb === "stream" || verb === "parts") {
      bus.publish(status("working", false))
      const chunks = verb === "parts" ? [userMessage.parts] : words.map((w) => [{ kind: "text" as const, text: w }])
      for (const [i, parts] of chunks.entries()) {
        bus.publish({ kind: "artifact-update", taskId, contextId, artifact: { artifactId: "out", parts }, append: i > 0, lastChunk: i === chunks.length - 1 })
      }
      bus.publish(status("completed", true, `done`))
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
    bus.publish({ kind: "status-update", taskId, contextId: waiting?.contextId ?? "", final: true, status: { state: "canceled" } })
    bus.finished()
    waiting?.resume()
  }
}

/** The SDK agent's card, with an extended card that declares security schemes. */
const card: AgentCard = {
  protocolVersion: "0.3.0",
  name: "SDK REST echo agent",
  description: "Echoes and streams over HTTP+JSON, served by @a2a-js/sdk",
  url: "http://127.0.0.1/placeholder",
  preferredTransport: "HTTP+JSON",
  version: "0.3.14",
  capabilities: { streaming: true, pushNotifications: true },
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [{ id: "echo", name: "Echo", description: "Echoes text; streams words", tags: ["echo"] }],
  supportsAuthenticatedExtendedCard: true
}

/** The extended card the SDK agent serves at `GET /v1/card`. */
export const sdkExtendedCard: AgentCard = {
  ...card,
  name: "SDK REST echo agent (extended)",
  securitySchemes: {
    key: { type: "apiKey", in: "header", name: "x-api-key" },
    oauth: { type: "oauth2", flows: { clientCredentials: { tokenUrl: "https://auth.example.com/token", scopes: { read: "Read" } } } }
  },
  security: [{ key: [] }, { oauth: ["read"] }]
}

/** Starts the agent; resolves once it listens. */
export const startSdkRestAgent = async (): Promise<SdkRestAgent> => {
  const noDelivery = { send: async () => {} }
  const handler = new DefaultRequestHandler(
    card,
    new InMemoryTaskStore(),
    new RestEchoExecutor(),
    undefined,
    new InMemoryPushNotificationStore(),
    noDelivery,
    async () => sdkExtendedCard
  )
  const app = express()
  app.use("/rest", restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }))
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s))
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/rest`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
