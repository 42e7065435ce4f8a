import { describe, expect, it } from "vitest"
import { messageText, textMessage, toAgentMessage, toParts } from "./messages.ts"

describe("agent message helpers", () => {
  const ids = { taskId: "t", contextId: "c" }

  it("turns text, a part or parts into an agent message of the task", () => {
    for (const input of ["hi", { kind: "text" as const, text: "hi" }, [{ kind: "text" as const, text: "hi" }]]) {
      const m = toAgentMessage(input, ids)
      expect(m).toMatchObject({ kind: "message", role: "agent", taskId: "t", contextId: "c", parts: [{ kind: "text", text: "hi" }] })
      expect(m.messageId).toMatch(/^[0-9a-f-]{36}$/)
    }
  })

  it("keeps a full message as given and fills in missing ids", () => {
    const given = textMessage("x")
    expect(toAgentMessage(given, ids)).toEqual({ ...given, taskId: "t", contextId: "c" })
    expect(toAgentMessage({ ...given, contextId: "other" }, ids).contextId).toBe("other")
  })

  it("extracts text and normalises parts", () => {
    expect(messageText({ ...textMessage("a"), parts: [{ kind: "text", text: "a" }, { kind: "data", data: {} }, { kind: "text", text: "b" }] }))
      .toBe("a\nb")
    expect(toParts("z")).toEqual([{ kind: "text", text: "z" }])
    expect(textMessage("u", "user").role).toBe("user")
  })
})
