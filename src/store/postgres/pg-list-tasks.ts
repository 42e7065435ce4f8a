/**
 * `TaskStore.listTasks` on PostgreSQL: one principal's tasks, newest status first, by keyset pagination on
 * the index of migration 5 (`owner`, status timestamp, `id`), with `LIMIT`; the total is a count over the
 * same filters. The status timestamp is the `status_at` column, which every write sets from the Task (the
 * form the runtime writes, `toISOString`, whose text order is its time order): PostgreSQL never expands
 * the stored JSON, which it could not for a Task holding U+0000 or a lone surrogate.
 *
 * @module
 */
import { Effect } from "effect"
import type { Task } from "../../../schemas/index.ts"
import type { TaskPage, TaskQuery, TaskStoreFailure } from "../../runtime/task-store.ts"
import { statusTimestampOf } from "../../runtime/task-store.ts"

/** Runs one statement; the store's own, which maps SQL failures to TaskStoreFailure. */
export type PgQuery = <A extends object>(what: string, text: string, params?: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<A>, TaskStoreFailure>

/** The sort key: the column the index has, so the planner walks the index in order. */
export const statusAt = "status_at"

/** The index `listTasks` walks (migration 5). */
export const listTasksIndex = (schema: string): string =>
  `CREATE INDEX tasks_owner_status_at ON ${schema}.tasks (owner, ${statusAt} DESC, id DESC)`

const parse = (value: Task | string): Task => (typeof value === "string" ? JSON.parse(value) as Task : value)

const filters = `owner = $1 AND ($2::text IS NULL OR context_id = $2) AND ($3::text IS NULL OR state = $3)
    AND ($4::text IS NULL OR ${statusAt} >= $4)`

/**
 * The page query: `$1` owner, `$2` context, `$3` state, `$4` status time from, `$5`/`$6` the cursor, `$7` how
 * many rows (one more than the page, which says whether a next page exists without a second query).
 */
export const listTasksPageSql = (schema: string): string => `SELECT task FROM ${schema}.tasks
    WHERE ${filters} AND ($5::text IS NULL OR (${statusAt}, id) < ($5, $6))
    ORDER BY ${statusAt} DESC, id DESC LIMIT $7::int`

/** `listTasks` for the store of `schema`. */
export const makeListTasks = (query: PgQuery, schema: string) => (q: TaskQuery): Effect.Effect<TaskPage, TaskStoreFailure> => {
  const params = [q.owner, q.contextId ?? null, q.state ?? null, q.statusAfter ?? null]
  const page = query<{ readonly task: Task | string }>("listing tasks", listTasksPageSql(schema), [
    ...params, q.after?.timestamp ?? null, q.after?.id ?? null, q.limit + 1
  ])
  const total = query<{ readonly n: number | string }>("counting tasks", `SELECT count(*) AS n FROM ${schema}.tasks WHERE ${filters}`, params)
  return Effect.map(Effect.all([page, total], { concurrency: 2 }), ([rows, counted]) => {
    const tasks = rows.slice(0, q.limit).map((r) => parse(r.task))
    const last = tasks[tasks.length - 1]
    const n = Number(counted[0]?.n ?? 0)
    return rows.length > q.limit && last !== undefined
      ? { tasks, next: { timestamp: statusTimestampOf(last), id: last.id }, total: n }
      : { tasks, total: n }
  })
}
