/**
 * The official JS SDK 1.3 (`@a2a-js/sdk@1.3.0`, the dev dependency `a2a-js-sdk-v1`) with Express 5 on Node,
 * serving A2A 1.0 over JSON-RPC (its 0.3 compatibility off), running the agent of `a2a-js.ts`: the message's
 * text says how many artifact chunks to stream (0 = complete at once); the executor publishes the Task,
 * the chunks and a final `completed` status; the store is the SDK's in-memory one.
 */
import type { AddressInfo } from "node:net"
import express from "express"
import { AgentCard, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from "a2a-js-sdk-v1"
import { AgentEvent, type AgentExecutor, DefaultRequestHandler, type ExecutionEventBus, InMemoryTaskStore, type RequestContext } from "a2a-js-sdk-v1/server"
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "a2a-js-sdk-v1/server/express"
import { announce, chunksWanted } from "./control.ts"

const executor: AgentExecutor = {
  execute: async (ctx: RequestContext, bus: ExecutionEventBus) => {
    const { taskId, contextId, userMessage } = ctx
    const first = userMessage.parts[0]?.content
    const n = chunksWanted(first?.$case === "text" ? first.value : undefined)
    const task = Task.fromJSON({ id: taskId, contextId, status: { state: "TASK_STATE_SUBMITTED", timestamp: new Date().toISOString() } })
    bus.publish(AgentEvent.task({ ...task, history: [userMessage] }))
    for (let i = 0; i < n; i++) {
      bus.publish(AgentEvent.artifactUpdate(TaskArtifactUpdateEvent.fromJSON({
        taskId,
        contextId,
        artifact: { artifactId: "a", parts: [{ text: String(i) }] },
        append: i > 0,
        lastChunk: i === n - 1
      })))
    }
    bus.publish(AgentEvent.statusUpdate(TaskStatusUpdateEvent.fromJSON({
      taskId,
      contextId,
      status: { state: "TASK_STATE_COMPLETED", timestamp: new Date().toISOString() }
    })))
    bus.finished()
  },
  cancelTask: async () => {}
}

const app = express()
const server = app.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`
  const card = AgentCard.fromJSON({
    name: "bench",
    description: "Streams numbered artifact chunks",
    version: "1.0.0",
    supportedInterfaces: [{ url: `${url}/`, protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
    capabilities: { streaming: true },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "chunks", name: "chunks", description: "numbered chunks", tags: ["bench"] }]
  })
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor)
  app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: handler }))
  app.use("/", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }))
  announce(url)
})
server.keepAliveTimeout = 60_000
