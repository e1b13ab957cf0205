import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { Infer } from '@vinejs/vine/types'
import type { ModelQueryBuilderContract } from '@adonisjs/lucid/types/model'
import User from '#models/user'
import type Role from '#models/role'
import { forbidden } from '#exceptions/api_exception'
import UserPolicy from '#policies/user_policy'
import { type AccountHolding, accountHolding, deptParents, roleGrants } from '#policies/holdings'
import { deptsShown } from '#policies/grant_rule'
import { SCOPED, type Viewer, findInScope, scoped } from '#services/admin/data_scope'
import { createAccount, resetPassword, unlockAccount } from '#services/admin_account_service'
import { revokeDevices } from '#auth/device_tokens'
import { endSessionsOf } from '#auth/sessions'
import { blockedUntilMany } from '#auth/limits'
import { accountKey, ceilingKey } from '#auth/login_limiter'
import { MASKED } from '#services/audit_log'
import { resetSecondFactor } from '#services/two_factor_service'
import { type Actor, ordered, whereKeyword } from '#services/admin/common'
import { readPage } from '#services/admin/user_list'
import { pageMeta } from '#providers/api_provider'
import { type ShownUser, userSort } from '#resources/users'
import { audit, auditCreated, deleteAudited, saveAudited } from '#services/admin/writes'
import { definedOnly } from '#core/defined_only'
import { assertIdsExist, LINKS, readLinks, replaceLinks, uniqueIds } from '#services/admin/links'
import { lockSuperAdmins, otherEnabledSuperAdmins } from '#services/admin/super_admin'
import type {
  createUserValidator,
  listUsersValidator,
  updateUserValidator,
} from '#validators/admin/user'

type UserFilters = Omit<Infer<typeof listUsersValidator>, 'pageNum' | 'pageSize'>

/** An account's roles in the order every answer lists them. */
const byRoleOrder = (roles: ModelQueryBuilderContract<typeof Role>) =>
  roles.orderBy('sort').orderBy('id')

/**
 * What the list query matches, as the key of its cached total: the viewer's scope (its own id
 * only under `self`) and the filters, less the order (the count ignores it).
 */
function totalKey(viewer: Viewer, filters: UserFilters) {
  const { all, deptIds, self } = viewer.access.scope
  const { sort, ...matching } = filters
  return JSON.stringify([all, [...deptIds], self && viewer.id, matching])
}

/**
 * Administrator accounts. Who may do what to whom is UserPolicy's (app/policies), asked inside
 * the transaction of each write with the facts read there; the data invariants (the last enabled
 * super admin, one's own account) stay here.
 */
export default class UserService {
  /**
   * The user list's query (the viewer's data scope, filters, order): the list reads its pages
   * (user_list.ts), the CSV export streams it with the roles (exportQuery), so whatever narrows
   * the list narrows the export. Built from `viewer` (its id and scope) and `filters` alone: the
   * list's cached total is keyed on them (totalKey).
   */
  query(viewer: Viewer, filters: UserFilters) {
    const query = scoped(User.query(), SCOPED.users, viewer)
    whereKeyword(query, ['account', 'nickname'], filters.keyword)
    if (filters.status) query.where('status', filters.status)
    if (filters.roleId) {
      query.whereIn('id', db.from('user_roles').select('user_id').where('role_id', filters.roleId))
    }
    if (filters.deptId) {
      // The department and its whole subtree (a recursive CTE: SQLite and PostgreSQL alike).
      query.whereRaw(
        `users.dept_id in (with recursive subtree(id) as (select cast(? as integer) union all
          select depts.id from depts join subtree on depts.parent_id = subtree.id)
          select id from subtree)`,
        [filters.deptId]
      )
    }
    return ordered(query, filters.sort, userSort, [{ column: 'id', order: 'asc' }])
  }

  /** The list's query as the CSV export streams it: models, with their roles. */
  exportQuery(viewer: Viewer, filters: UserFilters) {
    return this.query(viewer, filters).preload('roles', byRoleOrder)
  }

  /** A page of the list: plain rows with their roles and lock state (user_list.ts). */
  async list(viewer: Viewer, filters: Infer<typeof listUsersValidator>) {
    const { pageNum = 1, pageSize = 10, ...matching } = filters
    const list = {
      query: () => this.query(viewer, matching),
      key: totalKey(viewer, matching),
      order: matching.sort,
    }
    const page = await readPage(list, pageNum, pageSize)
    await this.withLockState(page.rows)
    return { rows: page.rows, meta: pageMeta(page.total, pageNum, pageSize) }
  }

  async show(viewer: Viewer, id: number) {
    return this.withDetail(await this.find(viewer, id))
  }

  /** The account `id` if the viewer's data scope shows it, else 404: every route goes through here. */
  private find(viewer: Viewer, id: number, client?: TransactionClientContract) {
    return findInScope(User, SCOPED.users, viewer, id, client)
  }

  /** An account as every answer shows it (after a write: found in scope before it). */
  private async withDetail(user: User) {
    await user.load('roles', byRoleOrder)
    await this.withLockState([user])
    return user
  }

  private async reload(id: number) {
    return this.withDetail(await User.findOrFail(id))
  }

  /**
   * Until when each account's anonymous logins are blocked (null: not blocked), for the lists: one
   * read of the limiter's store for the whole page.
   */
  private async withLockState(users: ShownUser[]) {
    const until = await blockedUntilMany(
      users.map((user) => [accountKey(user.account), ceilingKey(user.account)])
    )
    users.forEach((user, i) => (user.$extras.lockedUntil = until[i]?.toISOString() ?? null))
  }

  /** Clears the account's login blocks on every instance (also done by a password reset). */
  async unlock(actor: Actor, id: number) {
    const user = await this.find(actor, id)
    await actor.bouncer
      .with(UserPolicy)
      .authorize('unlock', await accountHolding(db.connection(), user.id))
    await unlockAccount(user)
    // The blocks live in the limiter's store, which writes through its own connection: the audit
    // row follows the unlock instead of sharing its transaction.
    await audit(db.connection(), actor, { targetType: 'user', targetId: user.id })
    return this.reload(id)
  }

  async create(actor: Actor, data: Infer<typeof createUserValidator>) {
    const roleIds = uniqueIds(data.roleIds)
    const user = await createAccount(
      { ...data, roleIds },
      {
        beforeInsert: async (trx) => {
          await assertIdsExist('roles', roleIds, 'roleIds', trx)
          const deptId = data.deptId ?? null
          if (deptId !== null) await assertIdsExist('depts', [deptId], 'deptId', trx)
          const roles = await roleGrants(trx, roleIds)
          const shows = deptsShown(roles, [deptId], await deptParents(trx))
          await actor.bouncer.with(UserPolicy).authorize('create', roles, { deptId, shows })
        },
        alsoInTransaction: (trx, created) => auditCreated(trx, actor, 'user', created, { roleIds }),
      }
    )
    return this.reload(user.id)
  }

  async update(actor: Actor, id: number, data: Infer<typeof updateUserValidator>) {
    await db.transaction(async (trx) => {
      await lockSuperAdmins(trx)
      const user = await this.find(actor, id, trx)
      if (user.id === actor.id && data.email !== undefined && data.email !== user.email) {
        // Without the current password and the undo link: PUT /api/auth/profile (docs/email.md).
        throw forbidden('changeOwnEmailProfile')
      }
      const target = await accountHolding(trx, user.id)
      const moved = data.deptId !== undefined && data.deptId !== user.deptId
      if (moved && data.deptId !== null) {
        await assertIdsExist('depts', [data.deptId!], 'deptId', trx)
      }
      await actor.bouncer.with(UserPolicy).authorize(
        'update',
        target,
        moved
          ? {
              deptId: data.deptId!,
              shows: deptsShown(target.roles, [data.deptId!], await deptParents(trx)),
            }
          : undefined
      )
      await saveAudited(trx, actor, 'user', user, async () => {
        if (data.status === 'disabled' && user.status === 'enabled') {
          await this.assertNotLastSuperAdmin(trx, user, target)
          if (user.id === actor.id) throw forbidden('youDisableOwnAccount')
          // The guard rejects disabled accounts already; the bump also kills tokens for good, so
          // re-enabling the account does not revive them (nor its device tokens).
          user.tokenVersion = user.tokenVersion + 1
          await revokeDevices(user.id, trx, {
            reason: 'account_disabled',
            account: user.account,
            ip: actor.audit.ip ?? undefined,
          })
          await endSessionsOf(user.id, 'account_disabled', trx)
        }
        user.merge(definedOnly(data))
      })
    })
    return this.reload(id)
  }

  async destroy(actor: Actor, id: number) {
    await db.transaction(async (trx) => {
      await lockSuperAdmins(trx)
      const user = await this.find(actor, id, trx)
      const target = await accountHolding(trx, user.id)
      await actor.bouncer.with(UserPolicy).authorize('delete', target)
      await this.assertNotLastSuperAdmin(trx, user, target)
      if (user.id === actor.id) throw forbidden('youDeleteOwnAccount')
      // user_roles rows go with it (FK cascade); articles keep existing with author_id = NULL.
      // With the row gone every JWT of the account fails its next request.
      await deleteAudited(trx, actor, 'user', user)
    })
  }

  /** The last enabled super admin keeps the account, its status and the role. */
  private async assertNotLastSuperAdmin(
    trx: TransactionClientContract,
    user: User,
    target: AccountHolding
  ) {
    if (
      target.isSuperAdmin &&
      user.status === 'enabled' &&
      (await otherEnabledSuperAdmins(user.id, trx)) === 0
    ) {
      throw forbidden('lastSuperAdmin')
    }
  }

  /** Replaces the account's role set (PUT semantics); only the difference is written. */
  async assignRoles(actor: Actor, id: number, roleIdsGiven: number[]) {
    const roleIds = uniqueIds(roleIdsGiven)
    await db.transaction(async (trx) => {
      await lockSuperAdmins(trx)
      const user = await this.find(actor, id, trx)
      await assertIdsExist('roles', roleIds, 'roleIds', trx)
      const target = await accountHolding(trx, user.id)
      const current = await readLinks(trx, LINKS.userRoles, user.id)
      const added = await roleGrants(
        trx,
        roleIds.filter((roleId) => !current.has(roleId))
      )
      // What the added roles show the account, in its department.
      const shows = deptsShown(added, [target.deptId], await deptParents(trx))
      await actor.bouncer.with(UserPolicy).authorize('assignRoles', target, added, shows)
      const next = await roleGrants(trx, roleIds)
      if (!next.some((role) => role.isSuperAdmin)) {
        await this.assertNotLastSuperAdmin(trx, user, target)
      }
      if (user.id === actor.id) throw forbidden('youChangeOwnRoles')
      await replaceLinks(trx, actor, LINKS.userRoles, user.id, current, roleIds)
    })
    return this.reload(id)
  }

  /** Same service as `node ace user:reset-2fa` (resetSecondFactor): grant rule, sessions end. */
  async resetTwoFactor(actor: Actor, id: number) {
    const user = await this.find(actor, id)
    if (user.id === actor.id) {
      throw forbidden('disableOwnSecondFactor')
    }
    await resetSecondFactor(user, {
      check: async (trx) =>
        actor.bouncer
          .with(UserPolicy)
          .authorize('resetTwoFactor', await accountHolding(trx, user.id)),
      audit: (trx, changes) =>
        audit(trx, actor, { targetType: 'user', targetId: user.id, changes }),
    })
  }

  /**
   * Same service as `node ace user:reset-password`: policy, argon2id, tokenVersion + 1; the owner
   * must change the password at the next sign-in.
   */
  async resetPassword(actor: Actor, id: number, password: string) {
    const user = await this.find(actor, id)
    if (user.id === actor.id) {
      // Without the current password: use PUT /api/auth/password for your own account.
      throw forbidden('changeOwnPasswordPut')
    }
    await actor.bouncer
      .with(UserPolicy)
      .authorize('resetPassword', await accountHolding(db.connection(), user.id))
    await resetPassword(
      user,
      password,
      (trx) =>
        audit(trx, actor, {
          targetType: 'user',
          targetId: user.id,
          changes: { password: [MASKED, MASKED] },
        }),
      { ip: actor.audit.ip ?? undefined }
    )
    return this.reload(id)
  }
}
