import type { HttpContext } from '@adonisjs/core/http'
import type { LucidModel, ModelQueryBuilderContract } from '@adonisjs/lucid/types/model'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import db from '@adonisjs/lucid/services/db'
import { FieldError, notFound } from '#exceptions/api_exception'
import type { AccessSnapshot } from '#auth/access_snapshot'
import { MAX_ID } from '#validators/admin/common'
import {
  type AuditEntry,
  type AuditSource,
  declaredPermission,
  recordAudit,
} from '#services/audit_log'

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

/** The actor of an admin request (the `can` middleware has authenticated it already). */
export function actorOf(ctx: HttpContext): Actor {
  const guard = ctx.auth.use('jwt')
  const access = guard.getAccessOrFail()
  const user = guard.getUserOrFail()
  return {
    id: user.id,
    access,
    bouncer: ctx.bouncer,
    audit: {
      actorId: user.id,
      actor: user.account,
      permission: declaredPermission(ctx) ?? 'undeclared',
      requestId: ctx.request.id() ?? null,
      ip: ctx.request.ip(),
    },
  }
}

export type Page = { pageNum: number; pageSize: number }

export function pageOf(filters: { pageNum?: number; pageSize?: number }): Page {
  return { pageNum: filters.pageNum ?? 1, pageSize: filters.pageSize ?? 10 }
}

/**
 * Loads a row by id or answers 404. An id beyond the 32-bit range cannot exist; refusing it here
 * keeps PostgreSQL from failing the query with "out of range" (a 500).
 */
export async function findOr404<Model extends LucidModel>(
  model: Model,
  id: number,
  client?: QueryClientContract
): Promise<InstanceType<Model>> {
  if (!Number.isSafeInteger(id) || id < 1 || id > MAX_ID) throw notFound()
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

/** The distinct ids, in the order given. */
export function uniqueIds(ids: number[] | undefined): number[] {
  return [...new Set(ids ?? [])]
}

/** Throws a 422 on `field` naming every id that does not exist in `table`. */
export async function assertIdsExist(
  table: string,
  ids: number[],
  field: string,
  client: QueryClientContract = db.connection()
) {
  if (ids.length === 0) return
  const rows: { id: number | string }[] = await client.from(table).select('id').whereIn('id', ids)
  const found = new Set(rows.map((row) => Number(row.id)))
  const missing = ids.filter((id) => !found.has(id))
  if (missing.length) {
    throw new FieldError(field, `Unknown id(s): ${missing.join(', ')}`, 'exists')
  }
}

/** The two link tables, by their owner and item columns. */
export const LINKS = {
  userRoles: { table: 'user_roles', owner: 'user_id', item: 'role_id' },
  roleMenus: { table: 'role_menus', owner: 'role_id', item: 'menu_id' },
} as const
type Link = (typeof LINKS)[keyof typeof LINKS]

/** The item ids linked to one owner (the roles of a user, the menus of a role). */
export async function readLinks(client: QueryClientContract, link: Link, ownerId: number) {
  const rows: Record<string, number | string>[] = await client
    .from(link.table)
    .select(link.item)
    .where(link.owner, ownerId)
  return new Set(rows.map((row) => Number(row[link.item])))
}

/**
 * Replaces an owner's link set by writing only the difference (call it inside the transaction
 * that read `current`): a failure keeps the previous set, and a row that stays is never
 * re-inserted, so a stale re-save cannot undo a revocation that committed meanwhile.
 */
export async function writeLinkDifference(
  client: QueryClientContract,
  link: Link,
  ownerId: number,
  current: Set<number>,
  next: number[]
) {
  const wanted = new Set(next)
  const removed = [...current].filter((id) => !wanted.has(id))
  const added = [...wanted].filter((id) => !current.has(id))
  if (removed.length) {
    await client.from(link.table).where(link.owner, ownerId).whereIn(link.item, removed).delete()
  }
  if (added.length) {
    await client
      .table(link.table)
      .multiInsert(added.map((id) => ({ [link.owner]: ownerId, [link.item]: id })))
  }
}

/** The audit row of an admin write, in the write's own transaction (app/services/audit_log.ts). */
export function audit(client: QueryClientContract, actor: Actor, entry: AuditEntry) {
  return recordAudit(client, actor.audit, entry)
}
