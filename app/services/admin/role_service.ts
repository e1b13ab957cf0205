import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import type { Infer } from '@vinejs/vine/types'
import Role from '#models/role'
import { conflict, forbidden } from '#exceptions/api_exception'
import { type Actor, BY_SORT, ResourceService, findOr404 } from '#services/admin/common'
import { roleSort, roleWrites } from '#resources/roles'
import { auditCreated, deleteAudited, saveAudited } from '#services/admin/writes'
import { definedOnly } from '#core/defined_only'
import { assertIdsExist, LINKS, readLinks, replaceLinks, uniqueIds } from '#services/admin/links'
import { isProtectedRole } from '#services/admin/super_admin'
import { ancestorClosure, parentMap } from '#services/admin/menu_service'
import RolePolicy from '#policies/role_policy'
import { deptParents, roleGrants } from '#policies/holdings'
import { deptsShown } from '#policies/grant_rule'
import { FieldError } from '#exceptions/api_exception'
import type { DataScopeKind } from '#models/role'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type {
  createRoleValidator,
  listRolesValidator,
  updateRoleValidator,
} from '#validators/admin/role'

/**
 * Roles and their menu sets. Who may change which role is RolePolicy's (app/policies). The
 * super_admin role (and any system role) holds every permission implicitly and is protected as
 * data: it cannot be deleted, disabled, re-coded or given a menu set, not even by a super admin.
 */
export default class RoleService extends ResourceService<
  typeof Role,
  Infer<typeof listRolesValidator>
> {
  constructor() {
    super(Role, {
      keyword: ['name', 'code'],
      exact: ['status'],
      sortable: roleSort,
      order: BY_SORT,
    })
  }

  /** With its menus and custom-scope departments. */
  async show(id: number) {
    const role = await super.show(id)
    await role.load('menus')
    await role.load('depts')
    return role
  }

  /**
   * The data scope a write asks for, checked against the departments that exist: `deptIds` only
   * with `custom` (422 otherwise), and a scope other than `custom` clears them.
   */
  private async scopeOf(
    trx: TransactionClientContract,
    dataScope: DataScopeKind,
    deptIdsGiven: number[] | undefined,
    current: readonly number[] = []
  ) {
    const deptIds = dataScope === 'custom' ? uniqueIds(deptIdsGiven ?? [...current]) : []
    if (dataScope !== 'custom' && deptIdsGiven?.length) {
      throw new FieldError('deptIds', 'departmentsGivenCustomScope', 'scope')
    }
    await assertIdsExist('depts', deptIds, 'deptIds', trx)
    return { dataScope, deptIds }
  }

  async create(actor: Actor, data: Infer<typeof createRoleValidator>) {
    await this.assertCodeFree(data.code)
    const { menuIds: menuIdsGiven, deptIds, dataScope, ...fields } = roleWrites.withDefaults(data)
    const menuIds = uniqueIds(menuIdsGiven)
    const role = await db.transaction(async (trx) => {
      await assertIdsExist('menus', menuIds, 'menuIds', trx)
      const parents = menuIds.length ? await parentMap(trx) : new Map<number, number | null>()
      const granted = ancestorClosure(menuIds, parents)
      const scope = await this.scopeOf(trx, dataScope, deptIds)
      // A new role has no holders yet: `all` and custom departments are what it shows.
      const shows = deptsShown([scope], [], new Map())
      await actor.bouncer.with(RolePolicy).authorize('create', granted, shows)
      // isSystem is never taken from a request: only the seeder creates system roles.
      const created = await Role.create(
        { ...fields, dataScope: scope.dataScope, isSystem: false },
        { client: trx }
      )
      if (granted.length) await created.related('menus').attach(granted, trx)
      if (scope.deptIds.length) await created.related('depts').attach(scope.deptIds, trx)
      await auditCreated(trx, actor, 'role', created, {
        menuIds: [...granted].sort((a, b) => a - b),
        deptIds: [...scope.deptIds].sort((a, b) => a - b),
      })
      return created
    })
    return this.show(role.id)
  }

  async update(actor: Actor, id: number, data: Infer<typeof updateRoleValidator>) {
    await db.transaction(async (trx) => {
      const role = await findOr404(Role, id, trx)
      if (isProtectedRole(role)) {
        if (data.code !== undefined && data.code !== role.code) {
          throw forbidden('systemRoleReCoded')
        }
        if (data.status === 'disabled') throw forbidden('systemRoleDisabled')
      }
      const [target] = await roleGrants(trx, [role.id])
      // A form sends the scope back unchanged with every edit: only a change counts.
      const given = data.deptIds === undefined ? undefined : uniqueIds(data.deptIds)
      const rescoped =
        (data.dataScope !== undefined && data.dataScope !== role.dataScope) ||
        (given !== undefined &&
          (given.length !== target.deptIds.length ||
            given.some((deptId) => !target.deptIds.includes(deptId))))
      if (rescoped && isProtectedRole(role)) {
        throw forbidden('dataScopeSystemRole')
      }
      const statusChanges = data.status !== undefined && data.status !== role.status
      const fields = definedOnly({ ...data, dataScope: undefined, deptIds: undefined })
      // A new scope is judged as the role's current holders would get it.
      const scope = rescoped
        ? await this.scopeOf(trx, data.dataScope ?? role.dataScope, data.deptIds, target.deptIds)
        : undefined
      const shows = scope
        ? deptsShown([scope], target.holderDepts, await deptParents(trx))
        : undefined
      await actor.bouncer
        .with(RolePolicy)
        .authorize('update', target, { status: statusChanges, shows })
      if (data.code !== undefined && data.code !== role.code) {
        await this.assertCodeFree(data.code, trx)
      }
      await saveAudited(trx, actor, 'role', role, () => {
        role.merge(fields)
        if (scope) role.dataScope = scope.dataScope
      })
      if (scope) {
        const current = await readLinks(trx, LINKS.roleDepts, role.id)
        const changed =
          current.size !== scope.deptIds.length ||
          scope.deptIds.some((deptId) => !current.has(deptId))
        if (changed)
          await replaceLinks(trx, actor, LINKS.roleDepts, role.id, current, scope.deptIds)
      }
    })
    return this.show(id)
  }

  async destroy(actor: Actor, id: number) {
    await db.transaction(async (trx) => {
      const role = await findOr404(Role, id, trx)
      if (isProtectedRole(role)) throw forbidden('systemRoleDeleted')
      const [target] = await roleGrants(trx, [role.id])
      await actor.bouncer.with(RolePolicy).authorize('delete', target)
      // user_roles and role_menus rows go with it (FK ON DELETE CASCADE): the holders lose what
      // the role granted on their very next request.
      await deleteAudited(trx, actor, 'role', role)
    })
  }

  /**
   * Replaces the role's menu set (PUT semantics). The ancestors of every given node are added:
   * the access snapshot only counts a node whose whole ancestor chain is granted, so a button
   * without its page and directory would grant nothing. RolePolicy decides who may.
   */
  async assignMenus(actor: Actor, id: number, menuIdsGiven: number[]) {
    const role = await findOr404(Role, id)
    if (isProtectedRole(role)) {
      throw forbidden('menusSystemRoleChanged')
    }
    const menuIds = uniqueIds(menuIdsGiven)
    await db.transaction(async (trx) => {
      await assertIdsExist('menus', menuIds, 'menuIds', trx)
      const granted = menuIds.length ? ancestorClosure(menuIds, await parentMap(trx)) : []
      const [target] = await roleGrants(trx, [role.id])
      // Emptying a role is checked like any other change of its set.
      await actor.bouncer.with(RolePolicy).authorize('assignMenus', target, granted)
      const current = await readLinks(trx, LINKS.roleMenus, role.id)
      await replaceLinks(trx, actor, LINKS.roleMenus, role.id, current, granted)
    })
    return this.show(id)
  }

  private async assertCodeFree(code: string, client: QueryClientContract = db.connection()) {
    const taken = await client.from('roles').select('id').where('code', code).first()
    if (taken) throw conflict('roleCodeAlreadyTaken')
  }
}
