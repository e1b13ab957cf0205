import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { SUPER_ADMIN_ROLE } from '#models/role'

/**
 * What targets hold, read inside the transaction of the write that a policy decides: the stored
 * grants, whatever their status (grant_rule.ts says why). One query each.
 */

/** A role as the grant rule sees it. */
export type RoleGrant = { id: number; isSuperAdmin: boolean; isSystem: boolean; menuIds: number[] }

/** An account as the grant rule sees it: its roles' stored menus, and whether it is a super admin. */
export type AccountHolding = { id: number; isSuperAdmin: boolean; menuIds: number[] }

const ids = (rows: Record<string, unknown>[], column: string) =>
  rows.map((row) => Number(row[column]))

export async function roleGrants(
  client: QueryClientContract,
  roleIds: readonly number[]
): Promise<RoleGrant[]> {
  if (roleIds.length === 0) return []
  const rows: { id: number; code: string; is_system: unknown; menu_id: number | null }[] =
    await client
      .from('roles')
      .leftJoin('role_menus', 'role_menus.role_id', 'roles.id')
      .whereIn('roles.id', [...roleIds])
      .select('roles.id', 'roles.code', 'roles.is_system', 'role_menus.menu_id')
  const byId = new Map<number, RoleGrant>()
  for (const row of rows) {
    const id = Number(row.id)
    let grant = byId.get(id)
    if (!grant) {
      grant = {
        id,
        isSuperAdmin: row.code === SUPER_ADMIN_ROLE,
        isSystem: Boolean(row.is_system),
        menuIds: [],
      }
      byId.set(id, grant)
    }
    if (row.menu_id !== null) grant.menuIds.push(Number(row.menu_id))
  }
  return [...byId.values()]
}

export async function accountHolding(
  client: QueryClientContract,
  userId: number
): Promise<AccountHolding> {
  const roleIds = ids(
    await client.from('user_roles').select('role_id').where('user_id', userId),
    'role_id'
  )
  const roles = await roleGrants(client, roleIds)
  return {
    id: userId,
    isSuperAdmin: roles.some((role) => role.isSuperAdmin),
    menuIds: roles.flatMap((role) => role.menuIds),
  }
}

/** The roles holding a menu node (stored link), for the move rule. */
export async function rolesHoldingMenu(client: QueryClientContract, menuId: number) {
  return ids(await client.from('role_menus').select('role_id').where('menu_id', menuId), 'role_id')
}
