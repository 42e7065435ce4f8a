/**
 * A workflow agent: the approval machine from `machines/` as an A2A agent, with an extension
 * whose methods (`approval/approve`, `approval/reject`, `approval/revise`) drive the same machine.
 */
import { Schema } from "effect"
import { approvalMachine, reviewEventFromText } from "../../machines/index.ts"
import { messageText, Workflow } from "../../src/index.ts"

/** The approval extension: its URI goes in the card, its methods reach a task's machine. */
export const approvalExtension = Workflow.extension({
  uri: "https://a2a-actors.dev/ext/approval/v1",
  namespace: "approval",
  machine: approvalMachine,
  description: "Review a draft with approval/approve, approval/reject or approval/revise",
  methods: {
    approve: () => ({ type: "review.approve" }),
    reject: Workflow.method(Schema.Struct({ reason: Schema.NonEmptyString }), ({ reason }) =>
      ({ type: "review.reject", reason })),
    revise: Workflow.method(Schema.Struct({ comment: Schema.NonEmptyString }), ({ comment }) =>
      ({ type: "review.revise", comment }))
  }
})

/** Drafts a document from the request, then waits for a reviewer to approve, reject or revise it. */
export const approvalAgent = Workflow.toAgent({
  card: {
    name: "Approvals",
    description: "Drafts a document and asks for approval before publishing it",
    version: "1.0.0",
    capabilities: { streaming: true },
    defaultInputModes: ["text/plain", "application/json"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "approval", name: "Draft for approval", description: "Drafts, revises on request, publishes when approved", tags: ["workflow", "approval"] }]
  },
  machine: approvalMachine,
  input: (message) => ({ request: messageText(message), maxRevisions: 2 }),
  // "approve", "reject <why>" or "revise <what>" as plain replies; or the extension's methods
  toEvent: (reply) => reviewEventFromText(messageText(reply)),
  extensions: [approvalExtension]
})
