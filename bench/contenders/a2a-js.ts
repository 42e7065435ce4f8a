/**
 * The official JS SDK (`@a2a-js/sdk` 0.3.14) with Express 5 on Node, running the bench agent: the
 * message's text says how many artifact chunks to stream (0 = complete at once). The executor
 * publishes the Task, the chunks and a final `completed` status, which is what the SDK expects
 * from an executor; the store is the SDK's in-memory one.
 */
import type { AddressInfo } from "node:net"
import express from "express"
import type { AgentCard, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from "@a2a-js/sdk"
import {
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext
} from "@a2a-js/sdk/server"
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express"
import { announce, chunksWanted } from "./control.ts"

const card: AgentCard = {
  protocolVersion: "0.3.0",
  name: "bench",
  description: "Streams numbered artifact chunks",
  url: "http://127.0.0.1/",
  version: "1.0.0",
  capabilities: { streaming: true },
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [{ id: "chunks", name: "chunks", description: "numbered chunks", tags: ["bench"] }]
}

const executor: AgentExecutor = {
  execute: async (ctx: RequestContext, bus: ExecutionEventBus) => {
    const { taskId, contextId, userMessage } = ctx
    const first = userMessage.parts[0]
    const n = chunksWanted(first?.kind === "text" ? first.text : undefined)
    const task: Task = {
      kind: "task",
      id: taskId,
      contextId,
      status: { state: "submitted", timestamp: new Date().toISOString() },
      history: [userMessage]
    }
    bus.publish(task)
    for (let i = 0; i < n; i++) {
      const chunk: TaskArtifactUpdateEvent = {
        kind: "artifact-update",
        taskId,
        contextId,
        artifact: { artifactId: "a", parts: [{ kind: "text", text: String(i) }] },
        append: i > 0,
        lastChunk: i === n - 1
      }
      bus.publish(chunk)
    }
    const done: TaskStatusUpdateEvent = {
      kind: "status-update",
      taskId,
      contextId,
      status: { state: "completed", timestamp: new Date().toISOString() },
      final: true
    }
    bus.publish(done)
    bus.finished()
  },
  cancelTask: async () => {}
}

const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor)
const app = express()
app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: handler }))
app.use("/", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }))

const server = app.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo
  announce(`http://127.0.0.1:${port}`)
})
server.keepAliveTimeout = 60_000
