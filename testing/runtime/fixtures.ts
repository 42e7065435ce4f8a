import type { AgentCard, Message, Part } from "../../schemas/index.ts"
import type { RequestContext } from "../../src/runtime/task-runtime.ts"

/** A minimal card for runtime tests. */
export const testCard = (inputModes: ReadonlyArray<string> = ["text/plain"]): AgentCard => ({
  protocolVersion: "0.3.0",
  name: "test agent",
  description: "agent used by runtime tests",
  url: "http://127.0.0.1/",
  version: "1.0.0",
  capabilities: { streaming: true, pushNotifications: true },
  defaultInputModes: [...inputModes],
  defaultOutputModes: ["text/plain"],
  skills: [{ id: "s", name: "s", description: "s", tags: [] }]
})

/** A user message; `ids` continue a task or pick a context. */
export const userMessage = (
  text: string,
  ids: { readonly taskId?: string; readonly contextId?: string } = {},
  parts?: ReadonlyArray<Part>
): Message => ({
  kind: "message",
  messageId: crypto.randomUUID(),
  role: "user",
  parts: parts ?? [{ kind: "text", text }],
  ...ids
})

/** A request context for principal `id`. */
export const as = (id: string): RequestContext => ({ principal: { id }, extensions: [] })
