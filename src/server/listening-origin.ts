/**
 * The origin a server listens on (`http://127.0.0.1:41241`), as the runtime adapter that bound
 * the socket knows it. Unlike the request's `Host` header, a client cannot choose it, so the
 * agent card names it when no `publicUrl` is configured.
 *
 * The adapters (`serveNode`, `serveBun`, `serveDeno`) provide it. A host of its own passes it as
 * the Web handler's second argument:
 *
 * @example
 * ```ts
 * const origin = Context.make(ListeningOrigin, "http://127.0.0.1:8080")
 * Bun.serve({ port: 8080, hostname: "127.0.0.1", fetch: (request) => server.handler(request, origin) })
 * ```
 *
 * @module
 */
import { Context } from "effect"

const ListeningOriginBase: Context.ServiceClass<ListeningOrigin, "a2a-actors/ListeningOrigin", string> =
  Context.Service<ListeningOrigin, string>()("a2a-actors/ListeningOrigin")

/** The listening origin: scheme, host and port, no path and no trailing slash. */
export class ListeningOrigin extends ListeningOriginBase {}
