import { describe, expect, it } from "vitest"
import type { Message } from "../schemas/index.ts"
import { ownMessage, withIds } from "./task-updates.ts"

const task = { id: "task-1", contextId: "ctx-1" } as const
const base: Message = { kind: "message", role: "agent", messageId: "m", parts: [{ kind: "text", text: "x" }], metadata: { k: 1 } }

describe("a recorded message", () => {
  it("carries the task's ids and every other field of the message, as a spread copy would", () => {
    const foreign: Message = { ...base, taskId: "other", contextId: "elsewhere" }
    for (const message of [base, foreign, { ...base, taskId: "task-1" }]) {
      const copy = withIds(message, task)
      expect(copy).toEqual({ ...message, taskId: "task-1", contextId: "ctx-1" })
      expect(Object.keys(copy)).toEqual(Object.keys({ ...message, taskId: "task-1", contextId: "ctx-1" }))
      expect(copy).not.toBe(message)
    }
  })

  it("keeps a key named __proto__ as data, never as the copy's prototype", () => {
    const hostile = JSON.parse(`{"kind":"message","role":"user","messageId":"m","parts":[],"__proto__":{"polluted":true}}`) as Message
    const copy = withIds(hostile, task)
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype)
    expect((copy as unknown as { polluted?: boolean }).polluted).toBeUndefined()
    expect(Object.keys(copy)).toEqual(["kind", "role", "messageId", "parts", "__proto__", "taskId", "contextId"])
  })

  it("is the message itself when it already names this task and context", () => {
    const own: Message = { ...base, taskId: "task-1", contextId: "ctx-1" }
    expect(ownMessage(task, own)).toBe(own)
    expect(ownMessage(task, base)).toEqual({ ...base, taskId: "task-1", contextId: "ctx-1" })
  })
})
