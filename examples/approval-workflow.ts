// examples/approval-workflow.ts — a workflow machine as an agent, driven by replies and by extension methods.
import { createA2AClient, userText } from "../src/client/index.ts"
import { serveNode } from "../src/adapters/node.ts"
import { A2AServer, type Task } from "../src/index.ts"
import { approvalAgent, approvalExtension } from "./agents/approval.ts"

const listening = await serveNode(await A2AServer.make(approvalAgent))
const client = await createA2AClient({ url: listening.url })
const text = (task: Task) => task.status.message?.parts.map((p) => (p.kind === "text" ? p.text : "")).join("") ?? ""

// The machine drafts, then waits for review in input-required.
const draft = await client.sendMessage(userText("Write a launch note"))
if (draft.kind !== "task") throw new Error("expected a task")
console.log(`draft: ${draft.status.state}`)

// A plain reply is one way to answer: "revise <what>" sends the machine back to drafting.
const revised = await client.sendMessage(userText("revise mention the date", { taskId: draft.id }))
console.log(`revise: ${(revised as Task).status.state}`)

// The extension's method is the other: approval/approve reaches the same machine. The client finds the
// extension in the card (the declaration listing the method) and activates it with X-A2A-Extensions.
const approved = await client.callExtension("approval/approve", { taskId: draft.id }) as Task
console.log(`approve (client): ${approved.status.state}, ${approved.artifacts?.length ?? 0} artifact(s)`)

// The same over plain HTTP, on a second task.
const second = await client.sendMessage(userText("Write a retirement note")) as Task
const response = await fetch(`${listening.url}/`, {
  method: "POST",
  headers: { "content-type": "application/json", "x-a2a-extensions": approvalExtension.declaration.uri },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "approval/reject", params: { taskId: second.id, reason: "not needed" } })
})
const rejected = (await response.json()).result as Task
console.log(`reject (http): ${rejected.status.state}, "${text(rejected)}"`)

await listening.close()
