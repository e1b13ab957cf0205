import db from '@adonisjs/lucid/services/db'
import type { LucidModel, ModelQueryBuilderContract } from '@adonisjs/lucid/types/model'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import type { DataScope } from '#auth/access_snapshot'
import { notFound } from '#exceptions/api_exception'

/*
| THE DATA SCOPE, applied in one place (docs/admin-modules.md, "Data scope"): every admin read
| and write of a scoped resource builds its query through `scoped()` or finds its row through
| `findInScope()`. Out of scope means absent: left out of lists, 404 on everything else, so
| nobody learns that a record exists outside what they see.
*/

/**
 * How a resource sits in the department tree: the column naming the account that owns a row
 * (`self`), and the column holding its department, or none when the row takes its owner's
 * department (users.dept_id).
 */
export type ScopedResource = { owner: string; dept?: string }

export const SCOPED = {
  /** An account is in its own department, and its own record under `self`. */
  users: { owner: 'users.id', dept: 'users.dept_id' },
  /** An article is in its author's department, and the author's own under `self`. */
  articles: { owner: 'articles.author_id' },
} satisfies Record<string, ScopedResource>

/** Whoever asks: the actor of an admin request (app/services/admin/common.ts) fits. */
export type Viewer = { id: number; access: { scope: DataScope } }

type Wheres = {
  whereRaw(sql: string, bindings: unknown[]): any
  whereIn(column: string, values: number[]): any
}

/** Narrows `query` to the rows of `resource` that `viewer` sees. */
export function scoped<Query extends ModelQueryBuilderContract<LucidModel, any>>(
  query: Query,
  resource: ScopedResource,
  viewer: Viewer
): Query {
  const { scope } = viewer.access
  if (scope.all) return query
  const deptIds = [...scope.deptIds]
  // `column IN deptIds`; on PostgreSQL as one array value, not one parameter per department (a
  // scope holds hundreds at times: fewer to bind, send and plan). The ids are integers.
  const pg = query.client.dialect.name === 'postgres'
  const inDepts = <Where extends Wheres>(where: Where, column: string): Where =>
    pg
      ? where.whereRaw('?? = ANY(?::int[])', [column, `{${deptIds}}`])
      : where.whereIn(column, deptIds)
  query.where((seen) => {
    // Nothing at all: a condition that never holds (an empty OR group would hold always).
    seen.whereRaw('1 = 0')
    if (deptIds.length) {
      if (resource.dept) seen.orWhere((among) => inDepts(among, resource.dept!))
      else
        seen.orWhereIn(
          resource.owner,
          inDepts(db.from('users').select('users.id'), 'users.dept_id')
        )
    }
    if (scope.self) seen.orWhere(resource.owner, viewer.id)
  })
  return query
}

/** The row `id` of `model` if `viewer` sees it, else 404 (also for an id that cannot exist). */
export async function findInScope<Model extends LucidModel>(
  model: Model,
  resource: ScopedResource,
  viewer: Viewer,
  id: number,
  client?: QueryClientContract
): Promise<InstanceType<Model>> {
  const query = model.query(client ? { client } : undefined).where(model.primaryKey, id)
  const row = await scoped(query, resource, viewer).first()
  if (!row) throw notFound()
  return row as InstanceType<Model>
}

/** Whether `viewer` sees department `deptId` (null: no department, seen with `all` only). */
export function seesDept(scope: DataScope, deptId: number | null) {
  return scope.all || (deptId !== null && scope.deptIds.has(deptId))
}
