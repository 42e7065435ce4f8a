/**
 * Test support: the conformance agent of CONFORMANCE.md built on the official JS SDK
 * (`@a2a-js/sdk` 0.3.14 server with express 5). The scenario suite runs against it to prove
 * that the harness recognises correct behaviour, and to record where the SDK deviates.
 */
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import express from "express"
import type { AgentCard, Task, TaskStatusUpdateEvent } from "@a2a-js/sdk"
import {
  DefaultExecutionEventBusManager,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
  type PushNotificationSender,
  type RequestContext
} from "@a2a-js/sdk/server"
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express"

/** A running SDK conformance agent. */
export interface SdkConformanceAgent {
  /** The JSON-RPC endpoint (the card's `url`). */
  readonly url: string
  /** Task snapshots the agent would have pushed (delivery is disabled: tests stay on loopback). */
  readonly pushed: ReadonlyArray<Task>
  /** Ends every open task and stops the server. */
  close(): Promise<void>
}

const mimeTypes = ["text/plain", "application/json", "application/octet-stream"]

/** Keeps every task `working` until it is canceled; follow-up messages re-publish the Task. */
class ConformanceExecutor implements AgentExecutor {
  private readonly waiting = new Map<string, () => void>()

  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const now = new Date().toISOString()
    const history = ctx.task?.history ?? [ctx.userMessage]
    const task: Task = {
      kind: "task",
      id: ctx.taskId,
      contextId: ctx.contextId,
      status: { state: "working", timestamp: now },
      history,
      ...(ctx.task?.artifacts !== undefined ? { artifacts: ctx.task.artifacts } : {})
    }
    bus.publish(task)
    // A follow-up joins the execution that already holds this task's event bus.
    if (this.waiting.has(ctx.taskId)) return
    await new Promise<void>((resolve) => this.waiting.set(ctx.taskId, resolve))
    this.waiting.delete(ctx.taskId)
    const canceled: TaskStatusUpdateEvent = {
      kind: "status-update",
      taskId: ctx.taskId,
      contextId: ctx.contextId,
      status: { state: "canceled", timestamp: new Date().toISOString() },
      final: true
    }
    bus.publish(canceled)
    bus.finished()
  }

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const resume = this.waiting.get(taskId)
    if (resume !== undefined) return resume()
    bus.publish({ kind: "status-update", taskId, contextId: "", status: { state: "canceled" }, final: true })
    bus.finished()
  }

  /** Releases every waiting execution (used at shutdown). */
  cancelAll(): void {
    for (const resume of [...this.waiting.values()]) resume()
  }
}

/**
 * Starts the SDK conformance agent on 127.0.0.1 (port 0 by default) and serves the card at both
 * well-known paths, the JSON-RPC endpoint at `/a2a/jsonrpc`.
 */
export const startSdkConformanceAgent = async (port = 0): Promise<SdkConformanceAgent> => {
  const card: AgentCard = {
    protocolVersion: "0.3.0",
    name: "SDK conformance agent",
    description: "Keeps tasks working until canceled; built on @a2a-js/sdk for black-box scenario baselines.",
    url: "http://127.0.0.1/a2a/jsonrpc",
    preferredTransport: "JSONRPC",
    version: "0.0.1",
    capabilities: { streaming: true, pushNotifications: true },
    defaultInputModes: mimeTypes,
    defaultOutputModes: mimeTypes,
    skills: [{ id: "hold", name: "Hold", description: "Holds a task in working state until canceled.", tags: ["conformance"] }]
  }
  const pushed: Array<Task> = []
  const sender: PushNotificationSender = {
    send: async (task) => {
      pushed.push(task)
    }
  }
  const executor = new ConformanceExecutor()
  const handler = new DefaultRequestHandler(
    card,
    new InMemoryTaskStore(),
    executor,
    new DefaultExecutionEventBusManager(),
    new InMemoryPushNotificationStore(),
    sender
  )
  const app = express()
  app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: handler }))
  app.use("/.well-known/agent.json", agentCardHandler({ agentCardProvider: handler }))
  app.use("/a2a/jsonrpc", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }))

  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(port, "127.0.0.1", (err?: Error) => (err ? reject(err) : resolve(s)))
  })
  const { port: actual } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${actual}/a2a/jsonrpc`
  card.url = url
  card.additionalInterfaces = [{ url, transport: "JSONRPC" }]
  return {
    url,
    pushed,
    close: async () => {
      executor.cancelAll()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}
