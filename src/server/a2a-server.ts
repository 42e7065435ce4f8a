/**
 * `A2AServer`: an agent served over A2A's JSON-RPC and REST bindings, in A2A 0.3 and 1.0 (chosen per request
 * by `A2A-Version`), as a Web-standard handler or as routes of an existing Effect HTTP router.
 *
 * @example
 * ```ts
 * const server = await A2AServer.make(agent)
 * Deno.serve(server.handler)            // or Bun.serve({ fetch: server.handler })
 * // later: await server.dispose()
 * ```
 */
import { HttpEffect, HttpRouter, HttpServerResponse, type HttpServerError, type HttpServerRequest } from "effect/http"
import { Context, Deferred, Effect, Exit, Layer, Queue, Scheduler, Scope } from "effect"
import type { AgentCard } from "../../schemas/index.ts"
import { completeCard, type Agent, type AgentCardInput } from "../agent/agent.ts"
import type { Principal } from "../auth/principal.ts"
import { TaskRuntime, type TaskRuntimeOptions } from "../runtime/task-runtime.ts"
import type { TaskStoreFailure } from "../runtime/task-store.ts"
import { makeAuditTrail, type AuditConfig } from "./audit-trail.ts"
import type { AuditEventInput } from "../audit/audit-event.ts"
import { makePrincipalResolver, type AuthenticationOptions } from "./authentication.ts"
import { makeAdmission } from "./admission.ts"
import { cardPaths, makeCardPublisher, publishCard, renderCard, type CardSigning } from "./card-publisher.ts"
import { cardRoute } from "./card-route.ts"
import { jsonRpc03 } from "./json-rpc-dialect.ts"
import type { CallContext } from "./method-handlers.ts"
import type { ProtocolVersion } from "./negotiation.ts"
import { rest03 } from "./rest/rest-v03.ts"
import { jsonRpcV1 } from "./v1/json-rpc-v1.ts"
import { makeV1Handlers } from "./v1/method-handlers-v1.ts"
import { restV1 } from "./v1/rest-v1.ts"
import { ioScheduler } from "./io-scheduler.ts"
import { isRouteTarget } from "./request-target.ts"
import { jsonRpcRoute } from "./json-rpc-route.ts"
import { restRoute, restRoutePattern } from "./rest/rest-route.ts"
import { makeMethodHandlers } from "./method-handlers.ts"
import { resolveServerOptions, type A2AServerOptions } from "./options.ts"
import { makePushService, type PushOptions } from "./push-service.ts"
import { Workflow } from "../workflow/index.ts"
import { makeTelemetry, type Telemetry } from "../telemetry/telemetry.ts"
import type { TelemetryOptions } from "../telemetry/telemetry-options.ts"
import { watchTasks } from "../telemetry/task-telemetry.ts"
import { instrumentStoreOption } from "../telemetry/store-telemetry.ts"
import { metricsRoute } from "./metrics-route.ts"

/** Options of {@link A2AServer.make} and {@link A2AServer.layer}. */
export interface A2AServerConfig extends A2AServerOptions {
  /** Options of the task runtime (store, replay window, ...). */
  readonly runtime?: TaskRuntimeOptions
  /** Authenticators for the schemes the card's `security` names; required when it names any. */
  readonly authentication?: AuthenticationOptions
  /**
   * Where audit events go: every request, refusal, extension activation, transition and push
   * attempt. A sink, or `{ sink, required: true }` to refuse requests that cannot be recorded.
   */
  readonly audit?: AuditConfig
  /** Push-notification delivery, used when the card declares `capabilities.pushNotifications`. */
  readonly push?: PushOptions
  /** The card served by `agent/getAuthenticatedExtendedCard` to authenticated callers. */
  readonly extendedCard?: AgentCardInput | ((principal: Principal) => AgentCardInput)
  /**
   * Signs every published card (JWS over RFC 8785 canonical JSON). Needs `publicUrl`: a signed card
   * names the configured URL only, never one derived from a request.
   */
  readonly cardSigning?: CardSigning
  /**
   * OpenTelemetry traces, metrics and logs over OTLP/HTTP, and metrics in Prometheus' text format; all off by
   * default, and then free. See docs/observability.md.
   */
  readonly telemetry?: TelemetryOptions
}

/** A running A2A server, not yet bound to a port: hand `handler` (or `app`) to an HTTP server. */
export interface A2AServerHandle {
  /**
   * Web-standard handler for Bun, Deno, Cloudflare-style hosts and tests. The optional context may
   * carry the `ListeningOrigin` (the adapters pass it), which the card names without `publicUrl`.
   */
  readonly handler: (request: Request, context?: Context.Context<never>) => Promise<Response>
  /**
   * The same server as an Effect HTTP app (used by the Node adapter's fast path): give it to
   * `HttpEffect.toWebHandler` or `NodeHttpServer.makeHandler`. It fails only with the router's
   * route-not-found error, which those turn into a 404.
   */
  readonly app: Effect.Effect<
    HttpServerResponse.HttpServerResponse,
    HttpServerError.HttpServerError,
    HttpServerRequest.HttpServerRequest | Scope.Scope
  >
  /** The task runtime behind the server. */
  readonly runtime: TaskRuntime
  /** How many audit events could not be recorded since the server started (each is also logged at error level). */
  readonly auditFailures: () => number
  /** Bytes of request bodies being received right now, across requests (bounded by `maxBodyBytesInFlight`). */
  readonly bodyBytesInFlight: () => number
  /**
   * The server's metrics in Prometheus' text format, when `telemetry` keeps metrics (else `undefined`): serve
   * it on a port of its own with the adapters' `serveMetrics`.
   */
  readonly metrics: (() => string) | undefined
  /**
   * Shuts down: `/readyz` says not ready and new tasks are refused at once; open streams end cleanly at
   * once; running tasks get `graceMs` (default the server's `shutdownGraceMs`) to reach a terminal or
   * interrupted state, then are handed over to another instance (a store several instances share: see
   * `TaskRuntime`'s `ShutdownRule`) or canceled; queued push notifications get a few seconds to go out.
   */
  readonly dispose: (options?: { readonly graceMs?: number }) => Promise<void>
}

/** A route's handler: every failure is already an answer. */
type Route = (request: HttpServerRequest.HttpServerRequest) => Effect.Effect<HttpServerResponse.HttpServerResponse>

/** The answer to a target that is not in normal form: what the router answers a path that names no route. */
const notRouted = HttpServerResponse.empty({ status: 404 })

const onIoScheduler = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.provideService(effect, Scheduler.Scheduler, ioScheduler)

interface Built {
  readonly runtime: TaskRuntime
  readonly telemetry: Telemetry | undefined
  readonly auditFailures: () => number
  readonly bodyBytesInFlight: () => number
  readonly register: (router: HttpRouter.HttpRouter) => Effect.Effect<void>
  readonly shutdown: (graceMs: number) => Effect.Effect<void>
}

/** With telemetry on, the whole server (its requests, tasks and background fibers) runs with its services. */
const withTelemetry = <A, E, R>(effect: Effect.Effect<A, E, R>, telemetry: Telemetry): Effect.Effect<A, E, R> =>
  Effect.updateContext(effect, (context: Context.Context<R>) => Context.merge(context, telemetry.context)) as Effect.Effect<A, E, R>

const build = (agent: Agent, config: A2AServerConfig): Effect.Effect<Built, TaskStoreFailure, Scope.Scope> =>
  Effect.gen(function* () {
    const telemetry = yield* makeTelemetry(config.telemetry, agent.card.name)
    if (telemetry === undefined) return yield* buildServer(agent, config, undefined)
    // Open task spans end when the server does (a task handed over goes on in another instance's trace).
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        const at = BigInt(Math.round((performance.timeOrigin + performance.now()) * 1e6))
        for (const span of telemetry.taskSpans.values()) span.end(at, Exit.void)
        telemetry.taskSpans.clear()
      }))
    return yield* withTelemetry(buildServer(agent, config, telemetry), telemetry)
  })

const buildServer = (agent: Agent, config: A2AServerConfig, telemetry: Telemetry | undefined): Effect.Effect<Built, TaskStoreFailure, Scope.Scope> =>
  Effect.gen(function* () {
    const options = resolveServerOptions(config)
    const card: AgentCard = {
      ...agent.card,
      ...(config.extendedCard !== undefined ? { supportsAuthenticatedExtendedCard: true } : {})
    }
    if (config.extendedCard !== undefined && (card.security?.length ?? 0) === 0) {
      throw new Error("An extended card needs the card to declare `security`: it is served to authenticated callers only")
    }
    checkPublicUrl(options.publicUrl)
    if (config.cardSigning !== undefined && options.publicUrl === undefined) {
      throw new Error(
        "`cardSigning` needs `publicUrl` (e.g. \"https://agent.example.com\"): a signed card must name the URL " +
          "configured for the server, never one taken from a request"
      )
    }
    const instruments = telemetry?.instruments
    const audit = makeAuditTrail(config.audit, instruments === undefined ? undefined : instruments.audit)
    const maxConfigs = config.push?.maxConfigsPerTask
    const given = config.runtime?.store
    // A store the embedder gave (PostgreSQL) is observed operation by operation; the default in-memory one is not.
    const runtimeOptions = telemetry === undefined || given === undefined ? config.runtime : { ...config.runtime, store: instrumentStoreOption(given, telemetry) }
    const runtime = yield* TaskRuntime.make(
      agent,
      maxConfigs === undefined ? runtimeOptions : { ...runtimeOptions, maxPushConfigsPerTask: maxConfigs }
    )
    const streamsEnded = yield* Deferred.make<void>()
    const facts = { rest: true, extendedCard: config.extendedCard !== undefined, tenant: options.tenant }
    const publisher = makeCardPublisher(card, options, facts, config.cardSigning)

    if (audit.enabled) {
      // Transitions are observed synchronously (the listener must not work): they queue here and are
      // recorded in order by a fiber of the server's scope, with the server's logger and tracer.
      const transitions = yield* Queue.unbounded<AuditEventInput>()
      yield* Effect.forkScoped(Effect.forever(Effect.flatMap(Queue.take(transitions), (input) => Effect.ignore(audit.record(input)))))
      yield* runtime.onTaskChange((change) => {
        if (change.previous === change.task.status.state) return
        Queue.offerUnsafe(transitions, {
          kind: "task-transition",
          taskId: change.task.id,
          from: change.previous ?? null,
          to: change.task.status.state
        })
      })
    }
    const push = card.capabilities.pushNotifications === true
      ? yield* makePushService(runtime, config.push ?? {}, options.publicUrl ?? (card.url || "a2a-actors"), (input) => Effect.ignore(audit.record(input)), telemetry)
      : undefined
    // After the push service's listener: a task's last change is offered for delivery while its span is open.
    if (telemetry !== undefined) yield* watchTasks(runtime, telemetry)

    const extended = config.extendedCard
    /** The extended card for a caller, in `version` (signed like the public card: a client that checks one can check the other). */
    const extendedCardOf = (ctx: CallContext, version: ProtocolVersion) => {
      const input = typeof extended === "function" ? extended!(ctx.principal) : extended!
      return Effect.flatMap(ctx.baseUrl(), (base) => renderCard(publishCard(completeCard(input), base, options, facts), version, facts, config.cardSigning))
    }
    const handlers = makeMethodHandlers({
      runtime,
      card,
      extendedCard: extended === undefined ? undefined : (ctx) => Effect.map(extendedCardOf(ctx, "0.3"), (c) => c as AgentCard),
      checkPushConfig: push?.check
    })
    const v1Handlers = makeV1Handlers({
      handlers,
      runtime,
      card,
      tenant: options.tenant,
      extendedCard: extended === undefined ? undefined : (ctx) => Effect.map(extendedCardOf(ctx, "1.0"), (c) => JSON.stringify(c))
    })
    // A refusal is answered as a refusal even when its record fails (the failure is counted and logged).
    const principal = makePrincipalResolver(card, config.authentication, (refusal, target) =>
      Effect.ignore(audit.record({
        kind: "auth-refused",
        schemes: refusal.schemes,
        status: refusal.status,
        reason: refusal.reason,
        ...(target.method !== undefined ? { method: target.method } : {})
      })))
    const workflows = Workflow.router(runtime)
    const extensionMethods = workflows.methods.size === 0
      ? undefined
      : { methods: workflows.methods, route: workflows.routeExtensionMethod }
    // Every route with a body reads it through `admission` (media type, credentials, size, bytes in flight).
    const admission = makeAdmission(options, principal)
    const routeDeps = { card, options, shutdown: Deferred.await(streamsEnded), principal, admission, audit }
    const rpc = jsonRpcRoute({ ...routeDeps, dialects: { "0.3": jsonRpc03(handlers), "1.0": jsonRpcV1(v1Handlers) }, extensionMethods })
    const rest = restRoute({ ...routeDeps, dialects: { "0.3": rest03(handlers), "1.0": restV1(v1Handlers, options.tenant) } })
    const cardJson = cardRoute(publisher, options)

    const register = (router: HttpRouter.HttpRouter) =>
      Effect.gen(function* () {
        // Every route is added here, and so reached only by a target in normal form, the same on every runtime
        // (request-target.ts). Requests, and the agents they start, run on a scheduler that lets socket writes
        // out (see io-scheduler.ts).
        const run = telemetry === undefined ? onIoScheduler : <A, E, R>(effect: Effect.Effect<A, E, R>) => onIoScheduler(withTelemetry(effect, telemetry))
        const add = (method: "GET" | "POST" | "*", path: HttpRouter.PathInput, handler: Route) =>
          router.add(method, path, (request) => isRouteTarget(request.url) ? run(handler(request)) : Effect.succeed(notRouted))
        yield* add("POST", options.rpcPath, rpc)
        for (const path of cardPaths) yield* add("GET", path, cardJson)
        yield* add("*", restRoutePattern, rest)
        if (options.healthChecks) {
          yield* add("GET", healthPaths.live, () => Effect.succeed(HttpServerResponse.jsonUnsafe({ status: "ok" }, { headers: noStore })))
          yield* add("GET", healthPaths.ready, () => Effect.sync(() => readiness(runtime)))
        }
        if (telemetry?.prometheusPath !== undefined) {
          yield* add("GET", telemetry.prometheusPath as HttpRouter.PathInput, metricsRoute(telemetry, principal))
        }
        if (push !== undefined) {
          const jwks = Effect.map(push.jwks, HttpServerResponse.fromWeb)
          yield* add("GET", "/.well-known/jwks.json", () => jwks)
        }
      })
    const shutdown = (graceMs: number) =>
      Effect.gen(function* () {
        yield* Deferred.succeed(streamsEnded, undefined)
        yield* runtime.shutdown({ grace: graceMs })
        if (push !== undefined) yield* push.shutdown
      })
    return { runtime, telemetry, register, shutdown, auditFailures: audit.failures, bodyBytesInFlight: admission.bodyBytesInFlight }
  })

/** The paths of the health checks (see `healthChecks`). */
export const healthPaths = { live: "/healthz", ready: "/readyz" } as const

const noStore = { "cache-control": "no-store" }

/** `/readyz`: 200 while the runtime takes new tasks, else 503 saying why. */
const readiness = (runtime: TaskRuntime): HttpServerResponse.HttpServerResponse => {
  if (runtime.ready()) return HttpServerResponse.jsonUnsafe({ status: "ready" }, { headers: noStore })
  const unstored = runtime.storeHealth().unstoredTasks
  const reason = unstored > 0 ? `the task store has not taken ${unstored} finished task${unstored === 1 ? "" : "s"}` : "stopping"
  return HttpServerResponse.jsonUnsafe({ status: "not ready", reason }, { status: 503, headers: noStore })
}

/** A configured `publicUrl` must be an absolute http(s) URL without query or fragment. */
const checkPublicUrl = (publicUrl: string | undefined): void => {
  if (publicUrl === undefined) return
  let url: URL | undefined
  try {
    url = new URL(publicUrl)
  } catch {
    url = undefined
  }
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:") || url.search !== "" || url.hash !== "" || url.username !== "") {
    throw new Error(`\`publicUrl\` must be an absolute http or https URL without credentials, query or fragment, got ${JSON.stringify(publicUrl)}`)
  }
}

/**
 * Paths match exactly. The router's defaults fold `//` into `/` and drop a trailing slash, so `POST //` and
 * `GET //.well-known/agent-card.json` would reach handlers that read a different path than the one routed;
 * such a path names no A2A route and is not found. The published card's URLs are matched as published.
 */
const exactPaths: Context.Service.Shape<typeof HttpRouter.RouterConfig> = {
  ignoreDuplicateSlashes: false,
  ignoreTrailingSlash: false
}

/** Serving an agent over A2A. */
export const A2AServer = {
  /**
   * Builds a server for `agent`: a Web handler, an Effect app and `dispose`. Asynchronous because
   * starting may generate keys (push-notification signing) with Web Crypto.
   */
  make: async (agent: Agent, config: A2AServerConfig = {}): Promise<A2AServerHandle> => {
    const scope = Effect.runSync(Scope.make())
    const built = await Effect.runPromise(Scope.provide(onIoScheduler(build(agent, config)), scope))
    // A router of its own, configured to match paths exactly (see `exactPaths`).
    const routes = await Effect.runPromise(
      Effect.flatMap(HttpRouter.make, (router) => Effect.as(built.register(router), router.asHttpEffect())).pipe(
        Effect.provideService(HttpRouter.RouterConfig, exactPaths)
      )
    )
    // Our routes answer every failure of their own; what is left is the router's route-not-found.
    const app = routes as A2AServerHandle["app"]
    // On the default runtime the tracer is Effect's native one, which records nothing: the platform
    // then skips its per-request server span by itself.
    const handler = HttpEffect.toWebHandler(app)
    const defaultGrace = resolveServerOptions(config).shutdownGraceMs
    let disposed: Promise<void> | undefined
    return {
      handler,
      app,
      runtime: built.runtime,
      auditFailures: built.auditFailures,
      bodyBytesInFlight: built.bodyBytesInFlight,
      metrics: built.telemetry?.instruments === undefined ? undefined : built.telemetry.prometheusText,
      dispose: (options) =>
        (disposed ??= Effect.runPromise(
          built.shutdown(options?.graceMs ?? defaultGrace).pipe(Effect.ensuring(Scope.close(scope, Exit.void)))
        ))
    }
  },

  /**
   * The server's routes for an app that already runs an `HttpRouter`. The task runtime
   * lives as long as the layer.
   *
   * Paths match as the router is configured; serve it with exact paths, as `A2AServer.make` does, so
   * that `POST //` is not found rather than routed to `POST /`.
   *
   * @example
   * ```ts
   * import { createServer } from "node:http"
   * import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
   * import { HttpRouter } from "effect/http"
   * import { Layer } from "effect"
   *
   * const app = Layer.mergeAll(A2AServer.layer(agent), myOtherRoutes)
   * HttpRouter.serve(app, { routerConfig: { ignoreDuplicateSlashes: false, ignoreTrailingSlash: false } }).pipe(
   *   Layer.provide(NodeHttpServer.layer(createServer, { port: 8080 })),
   *   Layer.launch
   * )
   * ```
   */
  layer: (agent: Agent, config: A2AServerConfig = {}): Layer.Layer<never, TaskStoreFailure, HttpRouter.HttpRouter> =>
    HttpRouter.use((router) =>
      Effect.gen(function* () {
        const built = yield* onIoScheduler(build(agent, config))
        yield* Effect.addFinalizer(() => built.shutdown(resolveServerOptions(config).shutdownGraceMs))
        yield* built.register(router)
      })
    )
}
