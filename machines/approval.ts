import {
  type ActorRefFromLogic,
  assign,
  emit,
  type EventObject,
  fromPromise,
  type MetaObject,
  type NonReducibleUnknown,
  type PromiseActorLogic,
  setup,
  type StateMachine
} from "xstate"

/** Input of a new approval: what the document is for, and how many revision rounds a reviewer may ask. */
export interface ApprovalInput {
  readonly request: string
  /** Default 3. One more `review.revise` after that many rounds rejects the request. */
  readonly maxRevisions?: number
}

/** What the drafter is asked: the request, the previous draft and the reviewer's comment on it (if any). */
export interface DraftInput {
  readonly request: string
  readonly previous: string | undefined
  readonly comment: string | undefined
  /** 0 for the first draft, then 1, 2, ... per requested revision. */
  readonly revision: number
}

/** The approval's state of affairs. */
export interface ApprovalContext {
  readonly request: string
  readonly draft: string | undefined
  /** Revision rounds requested so far. */
  readonly revisions: number
  readonly maxRevisions: number
  /** Reviewer comments, oldest first. */
  readonly comments: ReadonlyArray<string>
  /** Why the request was rejected or failed. */
  readonly reason: string | undefined
}

/**
 * Events of the approval. `draft.ready` delivers a draft (the invoked `drafter` does this through its
 * result; hosts may also send it); the `review.*` events are the reviewer's decision.
 */
export type ApprovalEvent =
  | { readonly type: "draft.ready"; readonly text: string }
  | { readonly type: "review.approve"; readonly comment?: string }
  | { readonly type: "review.reject"; readonly reason: string }
  | { readonly type: "review.revise"; readonly comment: string }

/** What the approval emits for the task: the approved document. */
export interface ApprovalEmitted {
  readonly type: "a2a.artifact"
  readonly artifactId: string
  readonly name: string
  readonly text: string
  readonly lastChunk: true
}

const defaultMaxRevisions = 3

/** A template draft, so the machine runs as is; real agents provide their own `drafter` (e.g. a model call). */
export const templateDraft = (input: DraftInput): string =>
  input.previous === undefined
    ? `Proposal: ${input.request}`
    : `${input.previous}\n\nRevision ${input.revision}: ${input.comment ?? ""}`.trimEnd()

const reviewPrompt = (context: ApprovalContext): string =>
  [
    `Draft ${context.revisions + 1} for review:`,
    "",
    context.draft ?? "",
    "",
    `Reply "approve", "reject <reason>" or "revise <what to change>" ` +
    `(${context.maxRevisions - context.revisions} revision round(s) left).`
  ].join("\n")

type Drafter = PromiseActorLogic<string, DraftInput, EventObject>

/** The approval chart's type, spelled out (JSR's fast check reads only explicit types of exports). */
type ApprovalMachine = StateMachine<
  ApprovalContext,
  ApprovalEvent,
  { [x: string]: ActorRefFromLogic<Drafter> | undefined },
  { src: "drafter"; logic: Drafter; id: string | undefined },
  never,
  { type: "revisionsLeft"; params: unknown },
  never,
  "failed" | "rejected" | "drafting" | "review" | "approved",
  string,
  ApprovalInput,
  NonReducibleUnknown,
  ApprovalEmitted,
  MetaObject,
  {
    id: "approval"
    states: {
      readonly drafting: {}
      readonly review: {}
      readonly approved: {}
      readonly rejected: {}
      readonly failed: {}
    }
  },
  MetaObject
>

/**
 * A document approval as a pure statechart: `drafting` (the invoked `drafter` writes a draft) → `review`
 * (the task asks the reviewer: `input-required`) → `approved` (completed, the document as artifact),
 * `rejected`, or back to `drafting` with the reviewer's comment, at most `maxRevisions` times. A drafter
 * failure ends in `failed`. States carry their A2A meaning in `meta.a2a` for the workflow bridge.
 *
 * @example
 * const withModel = approvalMachine.provide({
 *   actors: { drafter: fromPromise(({ input }) => writeDraft(input.request, input.comment)) }
 * })
 */
export const approvalMachine: ApprovalMachine = setup({
  types: {
    input: {} as ApprovalInput,
    context: {} as ApprovalContext,
    events: {} as ApprovalEvent,
    emitted: {} as ApprovalEmitted
  },
  actors: {
    drafter: fromPromise<string, DraftInput>(({ input }) => Promise.resolve(templateDraft(input)))
  },
  guards: {
    revisionsLeft: ({ context }) => context.revisions < context.maxRevisions
  }
}).createMachine({
  id: "approval",
  initial: "drafting",
  context: ({ input }) => ({
    request: input.request,
    draft: undefined,
    revisions: 0,
    maxRevisions: input.maxRevisions ?? defaultMaxRevisions,
    comments: [],
    reason: undefined
  }),
  states: {
    drafting: {
      meta: {
        a2a: "working",
        status: (context: ApprovalContext) => context.revisions === 0 ? "Drafting" : `Revising (round ${context.revisions})`
      },
      invoke: {
        id: "drafter",
        src: "drafter",
        input: ({ context }) => ({
          request: context.request,
          previous: context.draft,
          comment: context.comments.at(-1),
          revision: context.revisions
        }),
        onDone: { target: "review", actions: assign({ draft: ({ event }) => event.output }) },
        onError: {
          target: "failed",
          actions: assign({
            reason: ({ event }) => event.error instanceof Error ? event.error.message : String(event.error)
          })
        }
      },
      on: { "draft.ready": { target: "review", actions: assign({ draft: ({ event }) => event.text }) } }
    },
    review: {
      meta: { a2a: "input-required", prompt: reviewPrompt },
      on: {
        "review.approve": "approved",
        "review.reject": { target: "rejected", actions: assign({ reason: ({ event }) => event.reason }) },
        "review.revise": [
          {
            guard: "revisionsLeft",
            target: "drafting",
            actions: assign({
              revisions: ({ context }) => context.revisions + 1,
              comments: ({ context, event }) => [...context.comments, event.comment]
            })
          },
          {
            target: "rejected",
            actions: assign({ reason: ({ context }) => `revision limit of ${context.maxRevisions} reached` })
          }
        ]
      }
    },
    approved: {
      type: "final",
      meta: { a2a: "completed", message: "Approved" },
      entry: emit(({ context }) => ({
        type: "a2a.artifact" as const,
        artifactId: "document",
        name: "document",
        text: context.draft ?? "",
        lastChunk: true as const
      }))
    },
    rejected: {
      type: "final",
      meta: { a2a: "rejected", message: (context: ApprovalContext) => `Rejected: ${context.reason ?? "no reason given"}` }
    },
    failed: {
      type: "final",
      meta: { a2a: "failed", message: (context: ApprovalContext) => `Drafting failed: ${context.reason ?? "unknown error"}` }
    }
  }
})

/**
 * A reviewer's plain-text reply as an approval event: `approve` (also `approved`, `lgtm`, `yes`),
 * `reject <reason>`, `revise <comment>` (also `changes <comment>`). Anything else is undefined, so the
 * host can ask again.
 */
export const reviewEventFromText = (text: string): ApprovalEvent | undefined => {
  const trimmed = text.trim()
  if (/^(approve|approved|lgtm|yes)\b/i.test(trimmed)) return { type: "review.approve" }
  const reject = /^reject(?:ed)?\b[\s:,-]*([\s\S]*)$/i.exec(trimmed)
  if (reject !== null) return { type: "review.reject", reason: reject[1]?.trim() || "no reason given" }
  const revise = /^(?:revise|changes?)\b[\s:,-]*([\s\S]+)$/i.exec(trimmed)
  if (revise !== null && revise[1]!.trim() !== "") return { type: "review.revise", comment: revise[1]!.trim() }
  return undefined
}
