import { describe, expect, it } from "vitest"
import { initialTransition, transition } from "xstate"
import type { AnyMachineSnapshot } from "xstate"
import { approvalMachine, reviewEventFromText, templateDraft } from "./approval.ts"
import type { ApprovalEvent } from "./approval.ts"

type Snapshot = ReturnType<typeof initialTransition<typeof approvalMachine>>[0]

/** The emitted events among a transition's actions. */
const emittedOf = (actions: ReadonlyArray<{ type: string; params?: unknown }>) =>
  actions.filter((a) => a.type === "xstate.emit").map((a) => (a.params as { event: unknown }).event)

const metaOf = (s: AnyMachineSnapshot) => Object.values(s.getMeta()).at(-1) as Record<string, unknown> | undefined

const run = (events: ReadonlyArray<ApprovalEvent>, maxRevisions?: number) => {
  let [snapshot, actions] = initialTransition(approvalMachine, { request: "a launch note", ...(maxRevisions === undefined ? {} : { maxRevisions }) })
  let emitted = emittedOf(actions)
  for (const event of events) {
    ;[snapshot, actions] = transition(approvalMachine, snapshot, event)
    emitted = [...emitted, ...emittedOf(actions)]
  }
  return { snapshot: snapshot as Snapshot, emitted }
}

describe("approval machine", () => {
  it("starts drafting by invoking the drafter with the request", () => {
    const [snapshot, actions] = initialTransition(approvalMachine, { request: "a launch note" })
    expect(snapshot.value).toBe("drafting")
    expect(metaOf(snapshot)?.["a2a"]).toBe("working")
    const spawn = actions.find((a) => a.type === "xstate.spawnChild") as { params: { src: string } } | undefined
    expect(spawn?.params.src).toBe("drafter")
  })

  it("asks for review with the draft in the prompt", () => {
    const { snapshot } = run([{ type: "draft.ready", text: "Draft one" }])
    expect(snapshot.value).toBe("review")
    const meta = metaOf(snapshot)!
    expect(meta["a2a"]).toBe("input-required")
    const prompt = (meta["prompt"] as (c: unknown) => string)(snapshot.context)
    expect(prompt).toContain("Draft one")
    expect(prompt).toContain("3 revision round(s) left")
  })

  it("approve completes and emits the final document as an artifact", () => {
    const { emitted, snapshot } = run([{ type: "draft.ready", text: "Final text" }, { type: "review.approve" }])
    expect(snapshot.status).toBe("done")
    expect(snapshot.value).toBe("approved")
    expect(metaOf(snapshot)?.["a2a"]).toBe("completed")
    expect(emitted).toEqual([{ type: "a2a.artifact", artifactId: "document", name: "document", text: "Final text", lastChunk: true }])
  })

  it("reject ends rejected with the reason", () => {
    const { emitted, snapshot } = run([{ type: "draft.ready", text: "x" }, { type: "review.reject", reason: "off topic" }])
    expect(snapshot.value).toBe("rejected")
    const meta = metaOf(snapshot)!
    expect(meta["a2a"]).toBe("rejected")
    expect((meta["message"] as (c: unknown) => string)(snapshot.context)).toBe("Rejected: off topic")
    expect(emitted).toEqual([])
  })

  it("revise goes back to drafting with the comment, then to review with the new draft", () => {
    const { snapshot } = run([
      { type: "draft.ready", text: "v1" },
      { type: "review.revise", comment: "shorter" },
      { type: "draft.ready", text: "v2" }
    ])
    expect(snapshot.value).toBe("review")
    expect(snapshot.context).toMatchObject({ draft: "v2", revisions: 1, comments: ["shorter"] })
    const [drafting, actions] = transition(approvalMachine, run([{ type: "draft.ready", text: "v1" }]).snapshot, { type: "review.revise", comment: "shorter" })
    expect(drafting.value).toBe("drafting")
    const spawn = actions.find((a) => a.type === "xstate.spawnChild") as { params: { src: string } } | undefined
    expect(spawn?.params.src).toBe("drafter")
  })

  it("bounds revisions: one more revise after maxRevisions rejects", () => {
    const round = [{ type: "review.revise", comment: "again" }, { type: "draft.ready", text: "next" }] as const
    const { snapshot } = run([{ type: "draft.ready", text: "v1" }, ...round, ...round, { type: "review.revise", comment: "more" }], 2)
    expect(snapshot.value).toBe("rejected")
    expect(snapshot.context.reason).toBe("revision limit of 2 reached")
  })

  it("a drafter failure ends failed with its message", () => {
    const [start] = initialTransition(approvalMachine, { request: "r" })
    const [failed] = transition(approvalMachine, start, { type: "xstate.error.actor.drafter", error: new Error("model down") } as never)
    expect(failed.value).toBe("failed")
    expect((metaOf(failed)!["message"] as (c: unknown) => string)(failed.context)).toBe("Drafting failed: model down")
  })

  it("ignores review events while drafting", () => {
    const [start] = initialTransition(approvalMachine, { request: "r" })
    expect(start.can({ type: "review.approve" })).toBe(false)
    expect(transition(approvalMachine, start, { type: "review.approve" })[0].value).toBe("drafting")
  })

  it("parses reviewer replies", () => {
    expect(reviewEventFromText(" Approve ")).toEqual({ type: "review.approve" })
    expect(reviewEventFromText("lgtm")).toEqual({ type: "review.approve" })
    expect(reviewEventFromText("reject: too long")).toEqual({ type: "review.reject", reason: "too long" })
    expect(reviewEventFromText("reject")).toEqual({ type: "review.reject", reason: "no reason given" })
    expect(reviewEventFromText("revise make it shorter")).toEqual({ type: "review.revise", comment: "make it shorter" })
    expect(reviewEventFromText("revise")).toBeUndefined()
    expect(reviewEventFromText("hmm")).toBeUndefined()
  })

  it("the template drafter folds the comment into the previous draft", () => {
    expect(templateDraft({ request: "r", previous: undefined, comment: undefined, revision: 0 })).toBe("Proposal: r")
    expect(templateDraft({ request: "r", previous: "Proposal: r", comment: "add dates", revision: 1 })).toBe("Proposal: r\n\nRevision 1: add dates")
  })
})
