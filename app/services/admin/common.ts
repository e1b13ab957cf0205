import type { HttpContext } from '@adonisjs/core/http'
import { DateTime } from 'luxon'
import type { LucidModel, ModelQueryBuilderContract } from '@adonisjs/lucid/types/model'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { pageMeta } from '#providers/api_provider'
import { notFound } from '#exceptions/api_exception'
import type { AccessSnapshot } from '#auth/access_snapshot'
import type { Sortable } from '#openapi/schema'
import { type AuditSource, declaredPermission } from '#services/audit_log'

/**
 * Who performs an admin operation. `access` is the snapshot this request loaded (what the actor
 * holds); `bouncer` decides the object-level rules (app/policies) on facts the services read
 * inside their transactions.
 */
export type Actor = {
  id: number
  access: AccessSnapshot
  bouncer: HttpContext['bouncer']
  /** Who and what the audit row of a write names (the route's declared permission). */
  audit: AuditSource
}

/**
 * The actor of an admin request (the `can` middleware has authenticated it already). `permission`
 * names a signed-in person's own act on a route that declares none (own API tokens).
 */
export function actorOf(ctx: HttpContext, permission?: string): Actor {
  const guard = ctx.auth.use('jwt')
  const access = guard.getAccessOrFail()
  // The guard's account state, not the model: no User hydrated for an admin request.
  const account = guard.getAccountOrFail()
  return {
    id: account.id,
    access,
    bouncer: ctx.bouncer,
    audit: {
      actorId: account.id,
      actor: account.account,
      permission: permission ?? declaredPermission(ctx) ?? 'undeclared',
      requestId: ctx.request.id() ?? null,
      ip: ctx.request.ip(),
      // A write made with an API token names it (app/auth/api_tokens.ts).
      tokenId: guard.apiTokenId ?? null,
    },
  }
}

/**
 * One page of a filtered, ordered list query, with the contract's `meta` block: every admin list
 * pages the same way (defaults 1 and 10).
 */
export async function paginate<Row>(
  query: ModelQueryBuilderContract<LucidModel, Row>,
  filters: { pageNum?: number; pageSize?: number }
) {
  const { pageNum = 1, pageSize = 10 } = filters
  const page = await query.paginate(pageNum, pageSize)
  return { rows: page.all(), meta: pageMeta(page.total, pageNum, pageSize) }
}

type Order = { column: string; order: 'asc' | 'desc' }

/** The default order of a hand-ordered list (roles, menus, departments, dictionary items). */
export const BY_SORT: Order[] = [
  { column: 'sort', order: 'asc' },
  { column: 'id', order: 'asc' },
]

/**
 * Orders a list query by its `sort` (a value of the resource's `sortable` allow-list, checked by
 * its validator), the id breaking ties in the same direction so pages never overlap; without
 * `sort`, by the list's own default order. Columns are qualified with the model's table, so a
 * join added to a list query cannot make them ambiguous.
 */
export function ordered<Query extends ModelQueryBuilderContract<LucidModel, any>>(
  query: Query,
  sort: string | undefined,
  sortable: Sortable,
  defaults: Order[]
): Query {
  const table = query.model.table
  if (!sort) return query.orderBy(defaults.map((o) => ({ ...o, column: `${table}.${o.column}` })))
  const order = sort.startsWith('-') ? 'desc' : 'asc'
  const field = sort.replace(/^-/, '')
  const column = query.model.$getColumn(field)?.columnName
  if (!column || !sortable.fields.includes(field)) throw new Error(`not sortable: ${field}`)
  // SQLite puts NULLs first, PostgreSQL last: the same order on both, empty values at the end
  // (written out: knex's `nulls` option orders SQLite by the NULL test alone).
  if (sortable.nullable.includes(field)) {
    query.orderByRaw(`?? ${order} nulls last`, [`${table}.${column}`])
  } else query.orderBy(`${table}.${column}`, order)
  if (column !== 'id') query.orderBy(`${table}.id`, order)
  return query
}

/**
 * Loads a row by id or answers 404. The id is a route parameter: the route matcher already kept it
 * within the int4 range (app/core/route_ids.ts).
 */
export async function findOr404<Model extends LucidModel>(
  model: Model,
  id: number,
  client?: QueryClientContract
): Promise<InstanceType<Model>> {
  const row = await model.find(id, client ? { client } : undefined)
  if (!row) throw notFound()
  return row as InstanceType<Model>
}

/**
 * Case-insensitive "contains" over some columns, with %, _ and \ in the keyword taken literally.
 * LOWER() on both sides behaves the same on SQLite and PostgreSQL.
 */
export function whereKeyword(
  query: ModelQueryBuilderContract<any, any>,
  columns: string[],
  keyword: string | undefined
) {
  if (!keyword) return
  const pattern = `%${keyword.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`
  query.where((group) => {
    for (const column of columns) group.orWhereRaw(`LOWER(${column}) LIKE ? ESCAPE '\\'`, [pattern])
  })
}

/** Each of `exact` matched to its column exactly, when the filter gives it. */
function whereExact<Filters>(
  query: ModelQueryBuilderContract<LucidModel, any>,
  filters: Filters,
  exact: (keyof Filters & string)[]
) {
  for (const key of exact) {
    const value = filters[key] as string | number | undefined
    if (value) query.where(query.model.$getColumn(key)!.columnName, value)
  }
}

type ListFilters = { keyword?: string; sort?: string; pageNum?: number; pageSize?: number }

/** How an admin list filters and orders (listPage). */
export type Listing<Filters> = {
  keyword?: string[]
  exact: (keyof Filters & string)[]
  sortable: Sortable
  order: Order[]
}

/**
 * One page of an admin list: `keyword` searched in the `keyword` columns, each of `exact`
 * matched when given, ordered by `sort` or else by `order`.
 */
export function listPage<Row, Filters extends ListFilters>(
  query: ModelQueryBuilderContract<LucidModel, Row>,
  filters: Filters,
  list: Listing<Filters>
) {
  whereKeyword(query, list.keyword ?? [], filters.keyword)
  whereExact(query, filters, list.exact)
  return paginate(ordered(query, filters.sort, list.sortable, list.order), filters)
}

/**
 * The reads of an admin resource kept in one model: a page of its list (`listing`), and one row
 * by id or 404.
 */
export abstract class ResourceService<Model extends LucidModel, Filters extends ListFilters> {
  constructor(
    protected model: Model,
    protected listing: Listing<Filters>
  ) {}

  list(filters: Filters) {
    return listPage(this.model.query(), filters, this.listing)
  }

  show(id: number) {
    return findOr404(this.model, id)
  }
}

/**
 * Rows of a tree (departments, menus) as nodes under their parents, in the rows' order: a row
 * whose parent is not among them is a root.
 */
export function forest<Row extends { id: number; parentId: number | null }, Node>(
  rows: Row[],
  node: (row: Row, children: Node[]) => Node
): Node[] {
  const children = new Map<number, Node[]>(rows.map((row) => [row.id, []]))
  const roots: Node[] = []
  for (const row of rows) {
    const siblings = row.parentId === null ? undefined : children.get(row.parentId)
    ;(siblings ?? roots).push(node(row, children.get(row.id)!))
  }
  return roots
}

/**
 * The query of a log (login attempts, audit rows), shared by its list and its export: each of
 * `exact` matches its column exactly when given; `from`/`to` bound created_at to [from, to);
 * newest first unless `sort` says otherwise.
 */
export function logQuery<Model extends LucidModel, Filters extends LogFilters>(
  model: Model,
  filters: Filters,
  exact: (keyof Filters & string)[],
  sortable: Sortable
) {
  const query = model.query()
  whereExact(query, filters, exact)
  // Bound in the connection's own date format: SQLite compares stored dates as text.
  const format = query.client.dialect.dateTimeFormat
  const at = (date: Date) => DateTime.fromJSDate(date).toUTC().toFormat(format)
  if (filters.from) query.where('created_at', '>=', at(filters.from))
  if (filters.to) query.where('created_at', '<', at(filters.to))
  return ordered(query, filters.sort, sortable, [
    { column: 'created_at', order: 'desc' },
    { column: 'id', order: 'desc' },
  ])
}

type LogFilters = { from?: Date; to?: Date; sort?: string }
