import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import User from '#models/user'
import Menu from '#models/menu'
import Role from '#models/role'
import { ADMIN_ACCOUNT } from '#tests/helpers/auth'

/** The seeded rows the admin specs start from. */
export const seededAdmin = () => User.findByOrFail('account', ADMIN_ACCOUNT)
export const superRole = () => Role.findByOrFail('code', 'super_admin')
/** The seeded button carrying a permission code. */
export const button = (code: string) => Menu.findByOrFail('permission', code)

export const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b)
const linked = async (table: string, owner: string, id: number, item: string) =>
  sorted((await db.from(table).where(owner, id)).map((row) => Number(row[item])))
export const roleIdsOf = (userId: number) => linked('user_roles', 'user_id', userId, 'role_id')
export const menuIdsOf = (roleId: number) => linked('role_menus', 'role_id', roleId, 'menu_id')

/** The ids of a node and all of its ancestors, sorted. */
export async function chainOf(menu: Menu) {
  const ids = [menu.id]
  for (let parentId = menu.parentId; parentId !== null;) {
    const parent = await Menu.findOrFail(parentId)
    ids.push(parent.id)
    parentId = parent.parentId
  }
  return sorted(ids)
}

/**
 * Everything an attack on the grant rule could change, as plain ordered rows (compared before and
 * after): the tree, roles, accounts (password digests and token versions included), both link
 * tables, articles, and which sessions have ended.
 */
export async function rbacTables() {
  const rows = (table: string, columns: string[], order = columns.slice(0, 2)) =>
    db
      .from(table)
      .select(...columns)
      .orderBy(order.map((column) => ({ column })))
  return {
    menus: await rows('menus', ['id', 'parent_id', 'type', 'name', 'permission', 'status'], ['id']),
    roles: await rows('roles', ['id', 'code', 'name', 'status', 'is_system'], ['id']),
    users: await rows(
      'users',
      ['id', 'account', 'nickname', 'status', 'password', 'token_version'],
      ['id']
    ),
    roleMenus: await rows('role_menus', ['role_id', 'menu_id']),
    userRoles: await rows('user_roles', ['user_id', 'role_id']),
    articles: await rows('articles', ['id', 'title', 'status'], ['id']),
    endedSessions: await db
      .from('admin_sessions')
      .whereNotNull('ended_at')
      .select('id')
      .orderBy('id'),
  }
}

/** The permission codes GET /api/auth/me reports for each account (each must be enabled). */
export async function permissionsOf(client: ApiClient, users: User[]) {
  const result: string[][] = []
  for (const user of users) {
    const response = await client.get('/api/auth/me').loginAs(user)
    response.assertStatus(200)
    result.push(response.body().data.permissions)
  }
  return result
}
