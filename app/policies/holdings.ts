import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { type DataScopeKind, SUPER_ADMIN_ROLE } from '#models/role'
import { type ScopeGrant, deptsShown } from '#policies/grant_rule'

/**
 * What targets hold, read inside the transaction of the write that a policy decides: the stored
 * grants, whatever their status (grant_rule.ts says why). One query each.
 */

/** A role as the grant rule sees it; `shows`: the departments its scope shows its holders. */
export type RoleGrant = ScopeGrant & {
  id: number
  isSuperAdmin: boolean
  isSystem: boolean
  menuIds: number[]
  /** The departments of the accounts holding it. */
  holderDepts: (number | null)[]
  shows: 'all' | Set<number>
}

/**
 * An account as the grant rule sees it: its roles' stored menus and scopes, whether it is a super
 * admin, its department and the departments its roles show it.
 */
export type AccountHolding = {
  id: number
  isSuperAdmin: boolean
  menuIds: number[]
  deptId: number | null
  roles: RoleGrant[]
  shows: 'all' | Set<number>
}

const ids = (rows: Record<string, unknown>[], column: string) =>
  rows.map((row) => Number(row[column]))

export async function roleGrants(
  client: QueryClientContract,
  roleIds: readonly number[]
): Promise<RoleGrant[]> {
  if (roleIds.length === 0) return []
  const rows: {
    id: number
    code: string
    is_system: unknown
    data_scope: DataScopeKind
    menu_id: number | null
  }[] = await client
    .from('roles')
    .leftJoin('role_menus', 'role_menus.role_id', 'roles.id')
    .whereIn('roles.id', [...roleIds])
    .select('roles.id', 'roles.code', 'roles.is_system', 'roles.data_scope', 'role_menus.menu_id')
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
        dataScope: row.code === SUPER_ADMIN_ROLE ? 'all' : row.data_scope,
        deptIds: [],
        holderDepts: [],
        shows: new Set(),
      }
      byId.set(id, grant)
    }
    if (row.menu_id !== null) grant.menuIds.push(Number(row.menu_id))
  }
  const grants = [...byId.values()]
  const custom = await client
    .from('role_depts')
    .whereIn('role_id', [...roleIds])
    .select('role_id', 'dept_id')
  for (const row of custom) {
    ;(byId.get(Number(row.role_id))!.deptIds as number[]).push(Number(row.dept_id))
  }
  const holders = await client
    .from('user_roles')
    .join('users', 'users.id', 'user_roles.user_id')
    .whereIn('user_roles.role_id', [...roleIds])
    .select('user_roles.role_id', 'users.dept_id')
  const parents = await deptParents(client)
  for (const grant of grants) {
    grant.holderDepts = holders
      .filter((row) => Number(row.role_id) === grant.id)
      .map((row) => (row.dept_id === null ? null : Number(row.dept_id)))
    grant.shows = deptsShown([grant], grant.holderDepts, parents)
  }
  return grants
}

/** The parent of every department: the tree is small, one query reads it all. */
export async function deptParents(
  client: QueryClientContract
): Promise<Map<number, number | null>> {
  const rows: { id: number | string; parent_id: number | string | null }[] = await client
    .from('depts')
    .select('id', 'parent_id')
  return new Map(
    rows.map((row) => [Number(row.id), row.parent_id === null ? null : Number(row.parent_id)])
  )
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
  const user = await client.from('users').select('dept_id').where('id', userId).first()
  const deptId = user?.dept_id === null || !user ? null : Number(user.dept_id)
  return {
    id: userId,
    isSuperAdmin: roles.some((role) => role.isSuperAdmin),
    menuIds: roles.flatMap((role) => role.menuIds),
    deptId,
    roles,
    shows: deptsShown(roles, [deptId], await deptParents(client)),
  }
}

/** The roles holding a menu node (stored link), for the move rule. */
export async function rolesHoldingMenu(client: QueryClientContract, menuId: number) {
  return ids(await client.from('role_menus').select('role_id').where('menu_id', menuId), 'role_id')
}
