import logger from '@adonisjs/core/services/logger'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { forbidden } from '#exceptions/api_exception'
import type { Actor } from '#services/admin/common'

/**
 * No privilege escalation through the admin API: a non-super administrator may only grant what
 * they hold themselves. Without this, `system:role:assign-menus` could put any button (so any
 * permission code) into a role, their own included, and `system:user:create` or
 * `system:user:assign-roles` could hand a stronger role to an account they control.
 *
 * "Held" means the menu ids of the caller's access snapshot for this request: granted by an
 * enabled role, enabled, with the whole ancestor chain granted and enabled. Permission codes live
 * on button nodes, so holding the node is holding the code. Super administrators hold everything
 * and are not checked. Both checks run before the write (inside its transaction), so a refusal
 * writes nothing.
 */

function heldMenuIds(actor: Actor): ReadonlySet<number> {
  return actor.access.menuIds
}

const sortedIds = (ids: Iterable<number>) => [...ids].sort((a, b) => a - b)

/** Logged like a route-level denial: an attempted escalation is worth an audit trail. */
function refuse(actor: Actor, detail: { menuIds?: number[]; roleIds?: number[] }, message: string) {
  logger.warn({ userId: actor.id, ...detail }, 'grant refused: not held by the caller')
  return forbidden(message)
}

/**
 * A role's menu set goes from `current` to `next` (PUT roles/:id/menus; POST roles with an empty
 * `current`). `next` is closed over ancestors by the role service. The rule: every node of `next`
 * the caller does not hold must already be in `current` together with its whole ancestor chain.
 *
 * - A node being added must be held. The ancestors the service adds for a requested node are held
 *   whenever that node is: the snapshot only counts a node whose whole chain it holds, so no
 *   special case is needed for them.
 * - A node the role keeps may be one the caller lacks, so an editor can remove nodes and re-save a
 *   role without being blocked by the rest. Only the difference is written (role service), so a
 *   kept row is never re-inserted.
 * - But adding an ancestor must not make a kept node start to count: a stored node whose chain is
 *   incomplete grants nothing today, and completing the chain would grant it. Through this API
 *   stored sets are always ancestor-closed, so this only bites on hand-edited data.
 *
 * No query: `current` and `parents` are read by the role service for the write anyway.
 */
export function assertMayGrantMenus(
  actor: Actor,
  change: {
    current: ReadonlySet<number>
    next: readonly number[]
    parents: ReadonlyMap<number, number | null>
  }
) {
  if (actor.isSuperAdmin) return
  const held = heldMenuIds(actor)
  const refused = new Set<number>()
  for (const id of change.next) {
    if (held.has(id)) continue
    if (!change.current.has(id)) {
      refused.add(id)
      continue
    }
    const seen = new Set<number>([id]) // a cycle in corrupted data ends the walk
    for (let at = change.parents.get(id); at !== null && at !== undefined;) {
      if (!change.current.has(at)) {
        refused.add(id)
        break
      }
      if (seen.has(at)) break
      seen.add(at)
      at = change.parents.get(at)
    }
  }
  if (refused.size) {
    const menuIds = sortedIds(refused)
    throw refuse(
      actor,
      { menuIds },
      `You may only grant menus and permissions you hold yourself; not held: menu id(s) ${menuIds.join(', ')}`
    )
  }
}

/**
 * Roles being added to an account (POST users with roleIds, PUT users/:id/roles): each must grant
 * nothing the caller lacks, i.e. its menu set must be a subset of the caller's held menus.
 * Removing roles is not restricted here.
 *
 * The role's stored menu set is compared, whatever the status of the role or of its menus: a
 * disabled role or menu grants nothing today but everything as soon as someone re-enables it, and
 * the menu rule above would not let the caller add such a node to a role either. The super_admin
 * role (which holds everything implicitly, without stored menus) is refused to non-super
 * administrators by the user service before this check.
 *
 * One query for all the added roles, and none when nothing is added or the caller is a super
 * administrator.
 */
export async function assertMayGrantRoles(
  actor: Actor,
  addedRoleIds: readonly number[],
  client: QueryClientContract
) {
  if (actor.isSuperAdmin || addedRoleIds.length === 0) return
  const held = heldMenuIds(actor)
  const rows: { role_id: number | string; menu_id: number | string }[] = await client
    .from('role_menus')
    .select('role_id', 'menu_id')
    .whereIn('role_id', [...addedRoleIds])
  const refused = new Set<number>()
  for (const row of rows) {
    if (!held.has(Number(row.menu_id))) refused.add(Number(row.role_id))
  }
  if (refused.size) {
    const roleIds = sortedIds(refused)
    throw refuse(
      actor,
      { roleIds },
      `You may only grant roles whose menus and permissions you hold yourself; refused: role id(s) ${roleIds.join(', ')}`
    )
  }
}

/**
 * Taking over an account is granting oneself its permissions: a non-super administrator may only
 * reset the password of an account whose roles grant nothing the caller lacks (same comparison as
 * assertMayGrantRoles, over every role the account holds). One query.
 */
export async function assertMayTakeOver(
  actor: Actor,
  targetUserId: number,
  client: QueryClientContract
) {
  if (actor.isSuperAdmin) return
  const held = heldMenuIds(actor)
  const rows: { menu_id: number | string }[] = await client
    .from('role_menus')
    .join('user_roles', 'user_roles.role_id', 'role_menus.role_id')
    .where('user_roles.user_id', targetUserId)
    .select('role_menus.menu_id')
  const notHeld = rows.map((row) => Number(row.menu_id)).filter((id) => !held.has(id))
  if (notHeld.length) {
    throw refuse(
      actor,
      { menuIds: sortedIds(new Set(notHeld)) },
      'You may only reset the password of an account that holds no more than you do'
    )
  }
}
