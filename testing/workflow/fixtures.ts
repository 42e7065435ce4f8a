import { Schema } from "effect"
import { approvalMachine, reviewEventFromText } from "../../machines/approval.ts"
import { messageText } from "../../src/agent/messages.ts"
import { testCard } from "../runtime/fixtures.ts"
import { Workflow } from "../../src/workflow/index.ts"

/** The approval extension used by the workflow tests. */
export const approvalExtension = Workflow.extension({
  uri: "https://example.com/ext/approval/v1",
  namespace: "approval",
  machine: approvalMachine,
  description: "Review drafts with approval/approve, approval/reject and approval/revise",
  methods: {
    approve: () => ({ type: "review.approve" }),
    reject: Workflow.method(Schema.Struct({ reason: Schema.NonEmptyString }), ({ reason }) => ({ type: "review.reject", reason })),
    revise: Workflow.method(Schema.Struct({ comment: Schema.NonEmptyString }), ({ comment }) => ({ type: "review.revise", comment }))
  }
})

/** The approval workflow as an agent, with the template drafter and the text reply parser. */
export const approvalAgent = (maxRevisions = 2, options: { readonly sendSnapshot?: boolean; readonly persist?: boolean } = {}) =>
  Workflow.toAgent({
    card: testCard(),
    machine: approvalMachine,
    input: (message) => ({ request: messageText(message), maxRevisions }),
    toEvent: (reply) => reviewEventFromText(messageText(reply)),
    extensions: [approvalExtension],
    ...options
  })
