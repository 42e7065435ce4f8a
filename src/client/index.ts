/**
 * The A2A client, for agents that speak 1.0 or 0.3: card discovery in either version, the interface
 * picked from the card (1.0 preferred) or pinned, every method of the method table (and `listTasks`) over
 * JSON-RPC or REST with the same model types and results in both versions, SSE streams with automatic
 * resumption, interceptors; an Effect API (`A2AClient.make`) and a Promise API (`createA2AClient`).
 *
 * @module
 */

// First: stop with a clear message if the installed effect is not a supported version.
import "../../schemas/internal/effect-version.ts"

export {
  A2AClient,
  type A2AClientInit,
  type A2AClientMethods,
  type A2AClientOptions,
  type CallArgs,
  type CallOptions,
  type ExtensionCallOptions,
  methodNames,
  type ProtocolVersion,
  type StreamingMethod,
  type TransportChoice,
  type TransportProtocol,
  type UnaryMethod,
  userText,
  type VersionChoice
} from "./client.ts"
export {
  type A2APromiseClient,
  type A2APromiseClientMethods,
  createA2AClient,
  type PromiseCallArgs,
  type PromiseCallOptions,
  runToPromise,
  streamToAsyncIterable,
  toPromiseClient
} from "./promise-client.ts"
export {
  AGENT_CARD_PATH,
  cardCandidates,
  type CardInterface,
  cardInterfaces,
  type DiscoveredCard,
  LEGACY_AGENT_CARD_PATH,
  readCard,
  spokenVersion
} from "./discovery.ts"
export {
  type A2AClientError,
  A2AClientTransportError,
  type InvalidAnswerDetails,
  type InvalidAnswerReason,
  invalidAnswerReason,
  isLocalInvalidAnswer,
  type TransportReason
} from "./errors.ts"
export {
  authHeader,
  type ClientInterceptor,
  type Credential,
  EXTENSIONS_HEADER,
  extensionsHeader,
  V1_EXTENSIONS_HEADER,
  type OutgoingRequest,
  parseExtensionsHeader
} from "./interceptors.ts"
export { extensionFor } from "./extension-activation.ts"
export type { ResumePolicy } from "./resume.ts"
export type { SseMessage } from "./sse.ts"
export {
  CardVerificationError,
  type CardVerificationOptions,
  discoverVerifiedCard,
  type DiscoverVerifiedCardOptions,
  type VerifiedAgentCard,
  verifyAgentCard,
  verifyAgentCardText
} from "./card-verification.ts"
export {
  BENCH_RESULT_FORMAT,
  BenchOptionError,
  type BenchPlan,
  type BenchProgress,
  BenchRefusedError,
  type BenchResult,
  BenchTargetError,
  type BenchTransport,
  type BenchWorkload,
  benchLimits,
  benchmark,
  type BenchmarkOptions,
  benchWorkloads,
  type ComparedFigure,
  compareResults,
  drawHistogram,
  formatComparison,
  formatResult,
  type Histogram,
  type HostResolver,
  isBenchResult,
  type LatencySummary,
  type MessageTemplate
} from "../bench/index.ts"
