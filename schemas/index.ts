/**
 * Effect Schema codecs for every A2A 0.3.0 wire type, under the upstream definition names, with the JSON-RPC
 * envelope, the method table and the error catalogue. Pure data: no I/O.
 *
 * @module
 */

// First: stop with a clear message if the installed effect is not a supported version.
import "./internal/effect-version.ts"

export * from "./parts.ts"
export * from "./message.ts"
export * from "./task.ts"
export * from "./events.ts"
export * from "./params.ts"
export * from "./list-tasks.ts"
export * from "./push.ts"
export * from "./wire-errors.ts"
export { JsonObject, JsonUnknown, Metadata } from "./internal/common.ts"
export * from "./error-catalogue.ts"
export * from "./security-schemes.ts"
export * from "./agent-card.ts"
export * from "./jsonrpc.ts"
export * from "./requests.ts"
export * from "./responses.ts"
export * from "./methods.ts"
