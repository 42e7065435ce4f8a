/**
 * `A2AServer`: an agent served over A2A's JSON-RPC binding, as a Web-standard handler or as
 * routes of an existing `@effect/platform` router.
 *
 * @example
 * ```ts
 * const server = A2AServer.make(agent)
 * Deno.serve(server.handler)            // or Bun.serve({ fetch: server.handler })
 * // later: await server.dispose()
 * ```
 */
import { HttpApp, HttpLayerRouter, HttpServerResponse, type HttpServerRequest } from "@effect/platform"
import { Deferred, Effect, Exit, Layer, Scope } from "effect"
import type { AgentCard } from "../../schemas/index.ts"
import type { Agent } from "../agent/agent.ts"
import { anonymous, type Principal } from "../auth/principal.ts"
import { TaskRuntime, type TaskRuntimeOptions } from "../runtime/task-runtime.ts"
import { baseUrlOf, cardPaths, publishCard } from "./card-route.ts"
import { jsonRpcRoute } from "./json-rpc-route.ts"
import { makeMethodHandlers } from "./method-handlers.ts"
import { resolveServerOptions, type A2AServerOptions } from "./options.ts"

/** Options of {@link A2AServer.make} and {@link A2AServer.layer}. */
export interface A2AServerConfig extends A2AServerOptions {
  /** Options of the task runtime (store, replay window, ...). */
  readonly runtime?: TaskRuntimeOptions
}

/** A running A2A server, not yet bound to a port: hand `handler` (or `app`) to an HTTP server. */
export interface A2AServerHandle {
  /** Web-standard handler for Bun, Deno, Cloudflare-style hosts and tests. */
  readonly handler: (request: Request) => Promise<Response>
  /** The same server as an Effect HTTP app (used by the Node adapter's fast path). */
  readonly app: HttpApp.Default
  /** The task runtime behind the server. */
  readonly runtime: TaskRuntime
  /**
   * Shuts down: open streams end cleanly at once; running tasks get `graceMs` (default the
   * server's `shutdownGraceMs`) to reach a terminal or interrupted state, then are canceled.
   */
  readonly dispose: (options?: { readonly graceMs?: number }) => Promise<void>
}

interface Built {
  readonly runtime: TaskRuntime
  readonly register: (router: HttpLayerRouter.HttpRouter) => Effect.Effect<void>
  readonly shutdown: Deferred.Deferred<void>
}

const build = (agent: Agent, config: A2AServerConfig): Effect.Effect<Built, never, Scope.Scope> =>
  Effect.gen(function* () {
    const options = resolveServerOptions(config)
    const runtime = yield* TaskRuntime.make(agent, config.runtime)
    const shutdown = yield* Deferred.make<void>()
    const card: AgentCard = agent.card
    const handlers = makeMethodHandlers({ runtime, card, extendedCard: undefined })
    const principal = (_request: HttpServerRequest.HttpServerRequest): Effect.Effect<Principal, HttpServerResponse.HttpServerResponse> =>
      Effect.succeed(anonymous)
    const rpc = jsonRpcRoute({
      handlers,
      extensions: card.capabilities.extensions ?? [],
      options,
      shutdown: Deferred.await(shutdown),
      principal
    })
    const cardJson = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.succeed(HttpServerResponse.unsafeJson(
        publishCard(card, baseUrlOf(request.url, request.headers["host"], options), options),
        { headers: { "access-control-allow-origin": "*" } }
      ))
    const register = (router: HttpLayerRouter.HttpRouter) =>
      Effect.gen(function* () {
        yield* router.add("POST", options.rpcPath, rpc)
        for (const path of cardPaths) yield* router.add("GET", path, cardJson)
      })
    return { runtime, register, shutdown }
  })

const shutdownWith = (built: Built, graceMs: number) =>
  Effect.gen(function* () {
    yield* Deferred.succeed(built.shutdown, undefined)
    yield* built.runtime.shutdown({ graceMs })
  })

/** Serving an agent over A2A. */
export const A2AServer = {
  /** Builds a server for `agent`: a Web handler, an Effect app and `dispose`. */
  make: (agent: Agent, config: A2AServerConfig = {}): A2AServerHandle => {
    const scope = Effect.runSync(Scope.make())
    const built = Effect.runSync(Scope.extend(build(agent, config), scope))
    const app = Effect.runSync(Scope.extend(
      HttpLayerRouter.toHttpEffect(HttpLayerRouter.use(built.register)),
      scope
    )) as unknown as HttpApp.Default
    const handler = HttpApp.toWebHandler(app)
    const defaultGrace = resolveServerOptions(config).shutdownGraceMs
    let disposed: Promise<void> | undefined
    return {
      handler,
      app,
      runtime: built.runtime,
      dispose: (options) =>
        (disposed ??= Effect.runPromise(
          shutdownWith(built, options?.graceMs ?? defaultGrace).pipe(
            Effect.ensuring(Scope.close(scope, Exit.void))
          )
        ))
    }
  },

  /**
   * The server's routes for an app that already runs an `HttpLayerRouter`. The task runtime
   * lives as long as the layer.
   */
  layer: (agent: Agent, config: A2AServerConfig = {}): Layer.Layer<never, never, HttpLayerRouter.HttpRouter> =>
    HttpLayerRouter.use((router) =>
      Effect.gen(function* () {
        const built = yield* build(agent, config)
        yield* Effect.addFinalizer(() => shutdownWith(built, resolveServerOptions(config).shutdownGraceMs))
        yield* built.register(router)
      })
    )
}
