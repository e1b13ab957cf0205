import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract, TransactionClientContract } from '@adonisjs/lucid/types/database'
import { FieldError } from '#exceptions/api_exception'
import { changedFields } from '#services/audit_log'
import type { Actor } from '#services/admin/common'
import { audit } from '#services/admin/writes'

/*
| The two link tables (the roles of a user, the menus and the custom-scope departments of a role): reading a set, replacing it.
*/

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
    throw new FieldError(field, 'unknownIds', 'exists', { ids: missing.join(', ') })
  }
}

/** The two link tables, by their owner and item columns, and how the owner's audit row names them. */
export const LINKS = {
  userRoles: { table: 'user_roles', owner: 'user_id', item: 'role_id', audit: ['user', 'roleIds'] },
  roleMenus: { table: 'role_menus', owner: 'role_id', item: 'menu_id', audit: ['role', 'menuIds'] },
  roleDepts: { table: 'role_depts', owner: 'role_id', item: 'dept_id', audit: ['role', 'deptIds'] },
} as const
type Link = (typeof LINKS)[keyof typeof LINKS]

/** The item ids linked to one owner (the roles of a user, the menus and the custom-scope departments of a role). */
export async function readLinks(client: QueryClientContract, link: Link, ownerId: number) {
  const rows: Record<string, number | string>[] = await client
    .from(link.table)
    .select(link.item)
    .where(link.owner, ownerId)
  return new Set(rows.map((row) => Number(row[link.item])))
}

/**
 * Replaces an owner's link set by writing only the difference, with the owner's audit row (call it
 * inside the transaction that read `current`): a failure keeps the previous set, and a row that
 * stays is never re-inserted, so a stale re-save cannot undo a revocation that committed meanwhile.
 */
export async function replaceLinks(
  trx: TransactionClientContract,
  actor: Actor,
  link: Link,
  ownerId: number,
  current: Set<number>,
  next: number[]
) {
  const wanted = new Set(next)
  const removed = [...current].filter((id) => !wanted.has(id))
  const added = [...wanted].filter((id) => !current.has(id))
  if (removed.length) {
    await trx.from(link.table).where(link.owner, ownerId).whereIn(link.item, removed).delete()
  }
  if (added.length) {
    await trx
      .table(link.table)
      .multiInsert(added.map((id) => ({ [link.owner]: ownerId, [link.item]: id })))
  }
  const [targetType, field] = link.audit
  await audit(trx, actor, {
    targetType,
    targetId: ownerId,
    changes: changedFields({ [field]: sortedIds(current) }, { [field]: sortedIds(next) }),
  })
}

/** Ids in ascending order, as audit rows list them. */
const sortedIds = (ids: Iterable<number>) => [...ids].sort((a, b) => a - b)
