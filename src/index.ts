/**
 * a2a-actors: an embeddable A2A 0.3.0 runtime. Each task steps through its XState lifecycle chart
 * (compiled once into a table, checked against a live actor) while its agent runs in an Effect fiber;
 * workflows are XState actors. This entry point has the server, the agent API, the task runtime, authentication, push
 * notifications, signed cards and audit. The client is at `a2a-actors/client`, the wire schemas
 * at `a2a-actors/schemas`, the runtime adapters at `a2a-actors/node`, `/bun` and `/deno`.
 *
 * @module
 */

// First: stop with a clear message if the installed effect or xstate is not a supported version.
import "../schemas/internal/effect-version.ts"
import "../machines/internal/xstate-version.ts"

// Wire types used with the APIs below (every schema is at `a2a-actors/schemas`)
export type {
  AgentCard,
  AgentSkill,
  Artifact,
  Message,
  MessageSendParams,
  Part,
  PushNotificationConfig,
  Task,
  TaskArtifactUpdateEvent,
  TaskState,
  TaskStatus,
  TaskStatusUpdateEvent
} from "../schemas/index.ts"
export * as ProtocolErrors from "../schemas/error-catalogue.ts"
// A data part holding any JSON value (A2A 1.0), in the form both versions read.
export { dataPart, dataPartValue } from "../schemas/parts.ts"

// Serving
export { A2AServer, type A2AServerConfig, type A2AServerHandle } from "./server/a2a-server.ts"
export type { A2AServerOptions } from "./server/options.ts"
export type { AuthenticationOptions } from "./server/authentication.ts"
export type { PushOptions } from "./server/push-service.ts"
export type { CardSigning } from "./server/card-publisher.ts"
export { ListeningOrigin } from "./server/listening-origin.ts"
export type { Listening, ListenOptions, ShutdownOptions } from "./adapters/listening.ts"

// Telemetry: OpenTelemetry traces, metrics and logs, Prometheus text
export type { OtlpExportOptions, PrometheusOptions, TelemetryOptions } from "./telemetry/telemetry-options.ts"
export { metricNames } from "./telemetry/instruments.ts"

// Agents
export { Agent, type AgentCardInput, type AgentOptions, type OnReturn, completeCard } from "./agent/agent.ts"
export type { AsyncAgentOptions, AsyncTaskContext } from "./agent/async-agent.ts"
export { TaskActionRefused, type ArtifactOptions, type TaskContext } from "./agent/task-context.ts"
export { messageText, textMessage, textPart, type MessageInput, type PartsInput } from "./agent/messages.ts"

// The task runtime
export {
  TaskRuntime,
  type RequestContext,
  type SequencedEvent,
  type ShutdownRule,
  type TaskChange,
  type TaskRuntimeOptions,
  type WaitingTasksOptions
} from "./runtime/task-runtime.ts"
export type { TaskRecord, TaskStore } from "./runtime/task-store.ts"
export { makeMemoryTaskStore, type MemoryTaskStoreOptions } from "./runtime/memory-task-store.ts"

// Authentication
export { anonymous, type Principal } from "./auth/principal.ts"
export type { Authenticator, AuthContext } from "./auth/authenticator.ts"
export { AuthFailure } from "./auth/authenticator.ts"
export { apiKeyAuthenticator } from "./auth/api-key.ts"
export { bearerAuthenticator } from "./auth/bearer.ts"
export { basicAuthenticator } from "./auth/http-basic.ts"
export { jwtVerifier, type JwtVerifier } from "./auth/jwt-verifier.ts"
export { oidcJwtVerifier } from "./auth/oidc.ts"
export { mutualTlsAuthenticator } from "./auth/mutual-tls.ts"
export type { PeerCertificateInfo } from "./auth/auth-request.ts"

// Signed agent cards
export { canonicalize } from "./card/canonicalize.ts"
export { signCard, CardSigningError } from "./card/sign-card.ts"
export { verifyCard, jwksKeyResolver, CardVerificationError } from "./card/verify-card.ts"

// Push notifications (receiving side and keys)
export { makePushVerifier, NotificationRejected, type PushVerifier } from "./push/verifier.ts"
export { makePushKeySet, type PushKeySet } from "./push/jwks.ts"
export { makeUrlGuard, WebhookRefused, type DnsResolver } from "./push/url-guard.ts"

// Audit
export { AuditEvent } from "./audit/audit-event.ts"
export { memoryAuditSink, fanOutAuditSink, type AuditSink } from "./audit/audit-sink.ts"
export { jsonLinesSink } from "./audit/json-lines-sink.ts"
export { hashChainSink, type ChainHead, type HashChainOptions, type HashChainSink } from "./audit/hash-chain-sink.ts"
export {
  ChainReadError,
  verifyChain,
  verifyChainAsync,
  type ChainFailureReason,
  type ChainVerification,
  type VerifyChainOptions
} from "./audit/verify-chain.ts"
export { AUDIT_FIELD_LIMIT } from "./audit/clip-field.ts"
export type { AuditConfig, AuditOptions } from "./server/audit-trail.ts"

// Workflows: machines as agents, extension methods that drive them
export * from "./workflow/index.ts"
