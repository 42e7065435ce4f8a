/**
 * The PostgreSQL {@link TaskStore}: tasks, their stream events and the commands between instances in one
 * schema, through `@effect/sql-pg`. Several instances (processes, any mix of Node, Bun and Deno) may share
 * it: each task's agent runs on the instance holding the task's lease, every write of that instance is
 * fenced by the lease's epoch, a terminal task never changes again, readers on any instance tail the
 * events table (woken by NOTIFY), and commands reach the lease holder through a table and NOTIFY.
 * PostgreSQL's row locks and conditional updates decide every race; the instances never talk directly.
 *
 * Its parts, one file each: task rows (task-rows.ts), leases (leases.ts), commands (commands.ts), the
 * LISTEN connection (notifications.ts), stored streams (stored-events.ts) and housekeeping
 * (housekeeping.ts); this file opens the pool, migrates and runs the background round.
 */
import { Duration, Effect, Redacted, Schedule } from "effect"
import type { Scope } from "effect"
import { Reactivity } from "effect/reactivity"
import * as PgClient from "@effect/sql-pg/PgClient"
import { TaskStoreFailure } from "../../runtime/task-store.ts"
import type { SharedTasks, TaskStore } from "../../runtime/task-store.ts"
import { makeCommands } from "./commands.ts"
import { housekeeping } from "./housekeeping.ts"
import { makeLeases } from "./leases.ts"
import { makeListTasks } from "./pg-list-tasks.ts"
import { checkSchemaName, migrate } from "./migrations.ts"
import { listen, makeEventNotifier, makeWakeups } from "./notifications.ts"
import { makeStoreDb, storeFailure } from "./store-db.ts"
import { makeStoredEvents } from "./stored-events.ts"
import { makeTaskRows } from "./task-rows.ts"

/** Options of {@link makePostgresTaskStore}. */
export interface PostgresTaskStoreOptions {
  /** Connection URL, e.g. `postgres://user:password@host:5432/db`. */
  readonly url: string
  /** Schema holding the tables (created when absent). Default `a2a`. */
  readonly schema?: string
  /** This instance's id among those sharing the schema. Default: a random UUID per start. */
  readonly instanceId?: string
  /**
   * How long a task's lease outlives its holder's last renewal (renewed every third of it). After that
   * another instance ends the task `failed`, or runs it again when the agent is `retrySafe`. Default 15 s.
   */
  readonly lease?: Duration.Input
  /** How long finished tasks stay after their last write. Default 1 day. */
  readonly terminalTtl?: Duration.Input
  /**
   * How long a finished task's stream events stay, for resuming its stream by event id; after that a resume
   * gets the final Task. Default 10 minutes (at most `terminalTtl`).
   */
  readonly finishedEventsTtl?: Duration.Input
  /**
   * Stream events kept per running task, for resuming by event id; a resume from before them starts with
   * the Task as stored. Default 1,024 (at least 16).
   */
  readonly eventWindow?: number
  /** Most connections of this instance's pool, one of them held for LISTEN. Default 10. */
  readonly maxConnections?: number
}

/** A store several instances share, with its PostgreSQL schema. */
export interface PostgresTaskStore extends TaskStore {
  readonly shared: SharedTasks
  readonly schema: string
}

const millis = (input: Duration.Input | undefined, fallback: Duration.Input) => Duration.toMillis(Duration.fromInputUnsafe(input ?? fallback))

/**
 * Opens (and migrates) the store; it lives as long as the Scope: its pool, its LISTEN connection and the
 * fiber that says this instance is alive, takes its commands and keeps the tables bounded. Fails with a
 * {@link TaskStoreFailure} when the database cannot be reached or migrated, or an option is invalid.
 */
export const makePostgresTaskStore = (
  options: PostgresTaskStoreOptions
): Effect.Effect<PostgresTaskStore, TaskStoreFailure, Scope.Scope> =>
  Effect.gen(function*() {
    const schema = yield* Effect.try({
      try: () => checkSchemaName(options.schema ?? "a2a"),
      catch: (cause) => new TaskStoreFailure({ message: `PostgreSQL task store: ${(cause as Error).message}`, cause })
    })
    const instanceId = options.instanceId ?? crypto.randomUUID()
    const leaseMs = Math.max(100, millis(options.lease, Duration.seconds(15)))
    const terminalTtlMs = millis(options.terminalTtl, Duration.days(1))
    const finishedEventsTtlMs = Math.min(terminalTtlMs, millis(options.finishedEventsTtl, Duration.minutes(10)))
    const eventWindow = Math.max(16, Math.floor(options.eventWindow ?? 1_024))
    const pollMs = Math.max(50, Math.min(1_000, Math.floor(leaseMs / 3)))
    const scope = yield* Effect.scope

    const sql = yield* PgClient.make({
      url: Redacted.make(options.url),
      maxConnections: options.maxConnections ?? 10,
      applicationName: `a2a-actors ${instanceId}`
    }).pipe(
      Effect.provide(Reactivity.layer),
      Effect.mapError(storeFailure("connecting"))
    )
    yield* Effect.mapError(migrate(sql, schema), storeFailure("migrating"))
    const db = makeStoreDb(sql, { schema, instanceId, leaseMs, pollMs, scope })

    const wakeups = makeWakeups(pollMs)
    const rows = makeTaskRows(db, { eventWindow, notifyEvents: makeEventNotifier(db) })
    const leases = makeLeases(db)
    const commands = makeCommands(db, wakeups)
    const events = makeStoredEvents(db, wakeups)

    // Alive before anything is served; gone again when the store closes, so senders stop waiting for it.
    yield* commands.heartbeat
    yield* Effect.addFinalizer(() => Effect.ignore(commands.leave))
    yield* listen(db, wakeups, {
      commands: commands.take,
      handedOver: (ids) => commands.handlers()?.handedOver(ids) ?? Effect.void
    })

    // Every third of a lease: alive again, commands taken (a lost NOTIFY costs no more than this), and
    // housekeeping as often as things expire, at least every minute.
    const housekeepEveryMs = Math.max(1, Math.min(finishedEventsTtlMs, 60_000))
    let lastHousekeeping = Number.NEGATIVE_INFINITY
    const round = Effect.suspend(() => {
      const now = Date.now()
      const due = now - lastHousekeeping >= housekeepEveryMs
      if (due) lastHousekeeping = now
      return Effect.all([
        Effect.catch(commands.heartbeat, (e) => Effect.logWarning("PostgreSQL task store: could not say this instance is alive", e)),
        commands.take,
        due
          ? Effect.catch(Effect.asVoid(housekeeping(db, { terminalTtlMs, finishedEventsTtlMs })), (e) =>
            Effect.logWarning("PostgreSQL task store: housekeeping failed; it runs again on the next round", e))
          : Effect.void
      ], { discard: true })
    })
    yield* Effect.forkIn(Effect.repeat(round, Schedule.spaced(Duration.millis(Math.max(30, Math.floor(leaseMs / 3))))), scope)

    const shared: SharedTasks = {
      instanceId,
      leaseMs,
      renewLeases: leases.renew,
      takeOver: leases.takeOver,
      expiredLeases: leases.expired,
      releaseLease: (taskId, epoch, release) => leases.release(taskId, epoch, release?.handOver === true),
      events,
      send: commands.send,
      serve: commands.serve
    }
    return { ...rows, listTasks: makeListTasks(db.query, schema), shared, schema }
  })
