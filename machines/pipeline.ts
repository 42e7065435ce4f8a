import { type ActorRefFromLogic, type CallbackActorLogic, type EventObject, fromCallback, type MetaObject, type NonReducibleUnknown, setup, type StateMachine } from "xstate"

/** The pipeline's steps, in order: each one's output is the next one's input. */
export const pipelineSteps = ["fetch", "transform", "summarise"] as const

/** A step of the pipeline. */
export type StepName = (typeof pipelineSteps)[number]

/** What an invoked step actor receives. */
export interface StepInput {
  readonly step: StepName
  readonly input: string
}

/**
 * What step actors send back to the pipeline: output chunks while they run, then their whole output or
 * their failure. Plain data, so a pure test can drive the machine with them.
 */
export type PipelineEvent =
  | { readonly type: "step.chunk"; readonly text: string }
  | { readonly type: "step.done"; readonly output: string }
  | { readonly type: "step.failed"; readonly error: string }

/** What the pipeline emits for the task: one artifact per step (id = step name), in chunks. */
export interface PipelineEmitted {
  readonly type: "a2a.artifact"
  readonly artifactId: StepName
  readonly name: StepName
  readonly text: string
  readonly append: boolean
  readonly lastChunk: boolean
}

/** The pipeline's state of affairs. */
export interface PipelineContext {
  readonly source: string
  readonly outputs: Partial<Record<StepName, string>>
  /** The newest chunk of the running step, held back until the next one shows whether it is the last. */
  readonly pending: string | undefined
  /** Chunks of the running step already emitted. */
  readonly sent: number
  readonly failure: { readonly step: StepName; readonly message: string } | undefined
}

/**
 * The body of a step, given to {@link pipelineStep}: returns the step's output; may stream it in `chunk`s
 * first; should stop when `signal` aborts (the task was canceled).
 */
export type StepRun = (
  input: string,
  tools: { readonly step: StepName; readonly chunk: (text: string) => void; readonly signal: AbortSignal }
) => Promise<string>

/** A step's actor logic, as {@link pipelineStep} makes it. */
export type StepLogic = CallbackActorLogic<PipelineEvent, StepInput, EventObject>

/**
 * A step actor from an async function. Stopping the actor (cancel, or the pipeline leaving the step) aborts
 * `signal` and drops whatever the function still reports.
 *
 * @example
 * pipelineMachine.provide({ actors: { fetch: pipelineStep((url, { signal }) => fetch(url, { signal }).then((r) => r.text())) } })
 */
export const pipelineStep = (run: StepRun): StepLogic =>
  fromCallback<PipelineEvent, StepInput>(({ input, sendBack }) => {
    const controller = new AbortController()
    let open = true
    const send = (event: PipelineEvent) => {
      if (open) sendBack(event)
    }
    Promise.resolve()
      .then(() => run(input.input, { step: input.step, signal: controller.signal, chunk: (text) => send({ type: "step.chunk", text }) }))
      .then(
        (output) => send({ type: "step.done", output }),
        (error: unknown) => send({ type: "step.failed", error: error instanceof Error ? error.message : String(error) })
      )
    return () => {
      open = false
      controller.abort()
    }
  })

/** The default of every step: fails, naming what to provide. */
const unprovided = pipelineStep((_, { step }) =>
  Promise.reject(new Error(`step '${step}' has no implementation; provide it with machine.provide({ actors })`))
)

const setupPipeline = setup({
  types: {
    input: {} as { readonly source: string },
    context: {} as PipelineContext,
    events: {} as PipelineEvent,
    emitted: {} as PipelineEmitted
  },
  actors: { fetch: unprovided, transform: unprovided, summarise: unprovided }
})

const chunkOf = (step: StepName, text: string, sent: number, lastChunk: boolean): PipelineEmitted =>
  ({ type: "a2a.artifact", artifactId: step, name: step, text, append: sent > 0, lastChunk })

const inputOf = (context: PipelineContext, step: StepName): string => {
  const index = pipelineSteps.indexOf(step)
  return index === 0 ? context.source : context.outputs[pipelineSteps[index - 1]!] ?? ""
}

/** One step: invoke its actor, stream its chunks as artifact chunks (one behind), then go on. */
const stepState = (step: StepName, next: StepName | "done", status: string) =>
  setupPipeline.createStateConfig({
    tags: ["step"],
    meta: { a2a: "working", status },
    entry: setupPipeline.assign({ pending: undefined, sent: 0 }),
    invoke: { src: step, input: ({ context }) => ({ step, input: inputOf(context, step) }) },
    on: {
      "step.chunk": {
        actions: setupPipeline.enqueueActions(({ context, enqueue, event }) => {
          if (event.type !== "step.chunk") return
          if (context.pending !== undefined) enqueue.emit(chunkOf(step, context.pending, context.sent, false))
          enqueue.assign({ pending: event.text, sent: context.sent + (context.pending === undefined ? 0 : 1) })
        })
      },
      "step.done": {
        target: next,
        actions: setupPipeline.enqueueActions(({ context, enqueue, event }) => {
          if (event.type !== "step.done") return
          enqueue.emit(chunkOf(step, context.pending ?? event.output, context.sent, true))
          enqueue.assign({ outputs: { ...context.outputs, [step]: event.output }, pending: undefined })
        })
      },
      "step.failed": {
        target: "failed",
        actions: setupPipeline.assign({
          failure: ({ event }) => ({ step, message: event.type === "step.failed" ? event.error : "" })
        })
      }
    }
  })

/** The pipeline chart's type, spelled out (JSR's fast check reads only explicit types of exports). */
type PipelineMachine = StateMachine<
  PipelineContext,
  PipelineEvent,
  { [x: string]: ActorRefFromLogic<StepLogic> | undefined },
  | { src: "fetch"; logic: StepLogic; id: string | undefined }
  | { src: "transform"; logic: StepLogic; id: string | undefined }
  | { src: "summarise"; logic: StepLogic; id: string | undefined },
  never,
  never,
  never,
  "failed" | "done" | "fetch" | "transform" | "summarise",
  string,
  { readonly source: string },
  NonReducibleUnknown,
  PipelineEmitted,
  MetaObject,
  {
    id: "pipeline"
    states: {
      readonly fetch: {}
      readonly transform: {}
      readonly summarise: {}
      readonly done: {}
      readonly failed: {}
    }
  },
  MetaObject
>

/**
 * fetch → transform → summarise as a pure statechart. Each step is an invoked actor (`fetch`, `transform`,
 * `summarise`; provide them with {@link pipelineStep}) whose output becomes one artifact named after the
 * step, streamed in chunks; then the task completes. A failing step ends the pipeline in `failed`.
 */
export const pipelineMachine: PipelineMachine = setupPipeline.createMachine({
  id: "pipeline",
  initial: "fetch",
  context: ({ input }) => ({ source: input.source, outputs: {}, pending: undefined, sent: 0, failure: undefined }),
  states: {
    fetch: stepState("fetch", "transform", "Fetching"),
    transform: stepState("transform", "summarise", "Transforming"),
    summarise: stepState("summarise", "done", "Summarising"),
    done: {
      type: "final",
      meta: { a2a: "completed", message: (context: PipelineContext) => context.outputs.summarise ?? "" }
    },
    failed: {
      type: "final",
      meta: {
        a2a: "failed",
        message: (context: PipelineContext) => `Step ${context.failure?.step ?? "?"} failed: ${context.failure?.message ?? ""}`
      }
    }
  }
})
