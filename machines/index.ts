/**
 * Pure XState statecharts: the A2A task lifecycle, and (later) workflow-extension machines.
 *
 * @module
 */

// First: stop with a clear message if the installed xstate is not a supported version.
import "./internal/xstate-version.ts"

// Task lifecycle
export {
  isInterrupted,
  isTerminal,
  restore,
  start,
  step,
  taskChartEvents,
  taskMachine,
  taskOf,
  type LifecycleState,
  type RefusalReason,
  type StatusChange,
  type StepResult,
  type TaskEvent,
  type TaskInput,
  type MessageFacts,
  type TaskChartEvent,
  type TaskData,
  type TaskEffect,
  type TaskMachineSnapshot,
  type TaskSnapshot,
  type TaskStreamEvent,
  type TransitionRefused
} from "./task.ts"
export type { ArtifactChunk, ArtifactTable } from "./artifacts.ts"

// Workflow machines
export {
  approvalMachine,
  reviewEventFromText,
  templateDraft,
  type ApprovalContext,
  type ApprovalEmitted,
  type ApprovalEvent,
  type ApprovalInput,
  type DraftInput
} from "./approval.ts"
export {
  pipelineMachine,
  pipelineStep,
  pipelineSteps,
  type PipelineContext,
  type PipelineEmitted,
  type PipelineEvent,
  type StepInput,
  type StepName,
  type StepRun
} from "./pipeline.ts"
