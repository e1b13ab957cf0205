import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import Role, { type RoleStatus } from '#models/role'
import { conflict, forbidden } from '#exceptions/api_exception'
import {
  type Actor,
  assertIdsExist,
  findOr404,
  pageOf,
  LINKS,
  readLinks,
  uniqueIds,
  whereKeyword,
  writeLinkDifference,
} from '#services/admin/common'
import { isProtectedRole } from '#services/admin/super_admin'
import { ancestorClosure, parentMap } from '#services/admin/menu_service'
import { assertMayGrantMenus } from '#services/admin/grants'

export type RoleFilters = {
  pageNum?: number
  pageSize?: number
  keyword?: string
  status?: RoleStatus
}

export type CreateRoleData = {
  code: string
  name: string
  status?: RoleStatus
  sort?: number
  remark?: string | null
  menuIds?: number[]
}

export type UpdateRoleData = Partial<Omit<CreateRoleData, 'menuIds'>>

/**
 * Roles and their menu sets. The super_admin role (and any system role) holds every permission
 * implicitly and is protected: it cannot be deleted, disabled, re-coded or given a menu set.
 */
export default class RoleService {
  async list(filters: RoleFilters) {
    const { pageNum, pageSize } = pageOf(filters)
    const query = Role.query()
    whereKeyword(query, ['name', 'code'], filters.keyword)
    if (filters.status) query.where('status', filters.status)
    const page = await query.orderBy('sort', 'asc').orderBy('id', 'asc').paginate(pageNum, pageSize)
    return { rows: page.all(), total: page.total, pageNum, pageSize }
  }

  async show(id: number) {
    const role = await findOr404(Role, id)
    await role.load('menus')
    return role
  }

  async create(actor: Actor, data: CreateRoleData) {
    await this.assertCodeFree(data.code)
    const menuIds = uniqueIds(data.menuIds)
    const role = await db.transaction(async (trx) => {
      await assertIdsExist('menus', menuIds, 'menuIds', trx)
      const parents = menuIds.length ? await parentMap(trx) : new Map<number, number | null>()
      const granted = ancestorClosure(menuIds, parents)
      // A new role has nothing to keep: every node is granted by the caller.
      assertMayGrantMenus(actor, { current: new Set(), next: granted, parents })
      // isSystem is never taken from a request: only the seeder creates system roles.
      const created = await Role.create(
        {
          code: data.code,
          name: data.name,
          status: data.status ?? 'enabled',
          sort: data.sort ?? 0,
          remark: data.remark ?? null,
          isSystem: false,
        },
        { client: trx }
      )
      if (granted.length) await created.related('menus').attach(granted, trx)
      return created
    })
    return this.show(role.id)
  }

  async update(actor: Actor, id: number, data: UpdateRoleData) {
    const role = await findOr404(Role, id)
    if (isProtectedRole(role)) {
      if (data.code !== undefined && data.code !== role.code) {
        throw forbidden('A system role cannot be re-coded')
      }
      if (data.status === 'disabled') throw forbidden('A system role cannot be disabled')
      // Renaming or re-sorting is harmless, but still reserved to super administrators.
      if (!actor.isSuperAdmin) throw forbidden('Only a super administrator may edit a system role')
    }
    if (data.code !== undefined && data.code !== role.code) await this.assertCodeFree(data.code)
    role.merge(Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined)))
    await role.save()
    return this.show(id)
  }

  async destroy(id: number) {
    const role = await findOr404(Role, id)
    if (isProtectedRole(role)) throw forbidden('A system role cannot be deleted')
    // user_roles and role_menus rows go with it (FK ON DELETE CASCADE): the holders lose what
    // the role granted on their very next request.
    await role.delete()
  }

  /**
   * Replaces the role's menu set (PUT semantics). The ancestors of every given node are added:
   * the access snapshot only counts a node whose whole ancestor chain is granted, so a button
   * without its page and directory would grant nothing. A non-super caller may only add nodes
   * they hold (grants.ts).
   */
  async assignMenus(actor: Actor, id: number, menuIdsGiven: number[]) {
    const role = await findOr404(Role, id)
    if (isProtectedRole(role)) {
      throw forbidden('The menus of a system role cannot be changed: it holds every permission')
    }
    const menuIds = uniqueIds(menuIdsGiven)
    await db.transaction(async (trx) => {
      if (menuIds.length === 0) {
        // Grants nothing: no check, no read.
        await trx.from('role_menus').where('role_id', role.id).delete()
        return
      }
      await assertIdsExist('menus', menuIds, 'menuIds', trx)
      const parents = await parentMap(trx)
      const granted = ancestorClosure(menuIds, parents)
      const current = await readLinks(trx, LINKS.roleMenus, role.id)
      assertMayGrantMenus(actor, { current, next: granted, parents })
      await writeLinkDifference(trx, LINKS.roleMenus, role.id, current, [...granted])
    })
    return this.show(id)
  }

  private async assertCodeFree(code: string, client: QueryClientContract = db.connection()) {
    const taken = await client.from('roles').select('id').where('code', code).first()
    if (taken) throw conflict('The role code is already taken')
  }
}
