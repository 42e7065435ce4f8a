/**
 * What each JSON-RPC method does, keyed by the method table.
 *
 * The record is typed by `MethodName`, so adding a method to the table without a handler here
 * is a type error; the dispatcher learns from the table whether a method answers with a stream.
 */
import { Effect, type Stream } from "effect"
import {
  AuthenticatedExtendedCardNotConfigured,
  PushNotificationNotSupported,
  UnsupportedOperation,
  type ProtocolError
} from "../../schemas/error-catalogue.ts"
import type { AgentCard, MessageSendParams, PushNotificationConfig, TaskPushNotificationConfig } from "../../schemas/index.ts"
import type { MethodName, methods } from "../../schemas/methods.ts"
import type { RequestContext, SequencedEvent, TaskRuntime } from "../runtime/task-runtime.ts"
import { withoutPushVersion } from "./push-dialect.ts"
import type { Schema } from "effect"

type Params<M extends MethodName> = Schema.Schema.Type<(typeof methods)[M]["params"]>
type Result<M extends MethodName> = Schema.Schema.Type<(typeof methods)[M]["result"]>

/** A method's answer: a single result, or a stream of sequenced events. */
export type Answer<M extends MethodName> = (typeof methods)[M]["streaming"] extends true
  ? Stream.Stream<SequencedEvent, ProtocolError>
  : Result<M>

/** Everything a call can see besides its params. */
export interface CallContext extends RequestContext {
  /** `Last-Event-ID` of a resubscribe, when the client sent one. */
  readonly lastEventId: number | undefined
  /** The base URL the cards name for this request (see `card-base-url.ts`); fails when there is none to name. */
  readonly baseUrl: () => Effect.Effect<string, ProtocolError>
}

/** The handler of every core method. */
export type MethodHandlers = {
  readonly [M in MethodName]: (params: Params<M>, ctx: CallContext) => Effect.Effect<Answer<M>, ProtocolError>
}

/** What the handlers need. */
export interface HandlerDeps {
  readonly runtime: TaskRuntime
  readonly card: AgentCard
  /** The card for authenticated callers, when the agent has one. */
  readonly extendedCard: ((ctx: CallContext) => Effect.Effect<AgentCard, ProtocolError>) | undefined
  /** Refuses unsafe push configs (URL guard, header values) as they arrive. */
  readonly checkPushConfig: ((config: PushNotificationConfig) => Effect.Effect<void, ProtocolError>) | undefined
}

const streamingOff = (method: string) =>
  Effect.fail(new UnsupportedOperation({ message: `${method} needs capabilities.streaming, which this agent does not declare` }))
const pushOff = () =>
  Effect.fail(new PushNotificationNotSupported({ message: "This agent does not support push notifications" }))

/** A stored config as a 0.3 answer shows it (the version it was registered in is not part of it). */
const shown = (c: TaskPushNotificationConfig): TaskPushNotificationConfig => {
  const config = withoutPushVersion(c.pushNotificationConfig)
  return config === c.pushNotificationConfig ? c : { taskId: c.taskId, pushNotificationConfig: config }
}

/** Builds the handlers, gating each method on the capability that enables it. */
export const makeMethodHandlers = ({ runtime, card, extendedCard, checkPushConfig }: HandlerDeps): MethodHandlers => {
  const streaming = card.capabilities.streaming === true
  const push = card.capabilities.pushNotifications === true
  const checked = (config: PushNotificationConfig | undefined) =>
    config === undefined || checkPushConfig === undefined ? Effect.void : checkPushConfig(config)
  /** A config that comes with a message is checked (or refused, when push is off) before any task starts. */
  const inlinePush = (params: MessageSendParams) => {
    const config = params.configuration?.pushNotificationConfig
    if (config === undefined) return Effect.void
    return push ? checked(config) : pushOff()
  }
  return {
    "message/send": (params, ctx) => Effect.andThen(inlinePush(params), runtime.send(params, ctx)),
    "message/stream": (params, ctx) =>
      streaming ? Effect.andThen(inlinePush(params), runtime.stream(params, ctx)) : streamingOff("message/stream"),
    "tasks/get": (params, ctx) => runtime.get(params, ctx),
    "tasks/cancel": (params, ctx) => runtime.cancel(params, ctx),
    "tasks/resubscribe": (params, ctx) =>
      streaming ? runtime.resubscribe(params, ctx, ctx.lastEventId) : streamingOff("tasks/resubscribe"),
    "tasks/pushNotificationConfig/set": (params, ctx) =>
      push ? Effect.map(Effect.andThen(checked(params.pushNotificationConfig), runtime.setPushConfig(params, ctx)), shown) : pushOff(),
    "tasks/pushNotificationConfig/get": (params, ctx) => (push ? Effect.map(runtime.getPushConfig(params, ctx), shown) : pushOff()),
    "tasks/pushNotificationConfig/list": (params, ctx) =>
      push ? Effect.map(runtime.listPushConfigs(params, ctx), (cs) => cs.map(shown)) : pushOff(),
    "tasks/pushNotificationConfig/delete": (params, ctx) =>
      push ? Effect.as(runtime.deletePushConfig(params, ctx), null) : pushOff(),
    "agent/getAuthenticatedExtendedCard": (_params, ctx) =>
      card.supportsAuthenticatedExtendedCard === true && extendedCard !== undefined
        ? extendedCard(ctx)
        : Effect.fail(new AuthenticatedExtendedCardNotConfigured({
          message: "This agent has no authenticated extended card"
        }))
  }
}
