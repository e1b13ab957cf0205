import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import User, { type UserStatus } from '#models/user'
import { forbidden } from '#exceptions/api_exception'
import UserPolicy from '#policies/user_policy'
import { accountHolding, roleGrants } from '#policies/holdings'
import {
  type AccountInput,
  createAccount,
  setPassword,
  unlockAccount,
} from '#services/admin_account_service'
import { revokeDevices } from '#auth/device_tokens'
import { endSessionsOf } from '#auth/sessions'
import { accountKey, blockedUntil } from '#auth/login_limiter'
import { MASKED, changedFields } from '#services/audit_log'
import {
  type Actor,
  audit,
  assertIdsExist,
  findOr404,
  pageOf,
  LINKS,
  readLinks,
  uniqueIds,
  whereKeyword,
  writeLinkDifference,
} from '#services/admin/common'
import { lockSuperAdmins, otherEnabledSuperAdmins } from '#services/admin/super_admin'

export type UserFilters = {
  pageNum?: number
  pageSize?: number
  keyword?: string
  status?: UserStatus
  roleId?: number
}

export type UpdateUserData = { nickname?: string; email?: string | null; status?: UserStatus }

const LAST_SUPER_ADMIN = 'The last enabled super administrator must stay enabled and keep the role'

/**
 * Administrator accounts. Who may do what to whom is UserPolicy's (app/policies), asked inside
 * the transaction of each write with the facts read there; the data invariants (the last enabled
 * super admin, one's own account) stay here.
 */
export default class UserService {
  async list(filters: UserFilters) {
    const { pageNum, pageSize } = pageOf(filters)
    const query = User.query().preload('roles', (roles) => roles.orderBy('sort').orderBy('id'))
    whereKeyword(query, ['account', 'nickname'], filters.keyword)
    if (filters.status) query.where('status', filters.status)
    if (filters.roleId) {
      query.whereIn('id', db.from('user_roles').select('user_id').where('role_id', filters.roleId))
    }
    const page = await query.orderBy('id', 'asc').paginate(pageNum, pageSize)
    await this.withLockState(page.all())
    return { rows: page.all(), total: page.total, pageNum, pageSize }
  }

  async show(id: number, client?: TransactionClientContract) {
    const user = await findOr404(User, id, client)
    await user.load('roles', (roles) => roles.orderBy('sort').orderBy('id'))
    await this.withLockState([user])
    return user
  }

  /** Until when each account's anonymous logins are blocked (null: not blocked), for the lists. */
  private async withLockState(users: User[]) {
    await Promise.all(
      users.map(async (user) => {
        const until = await blockedUntil(accountKey(user.account))
        user.$extras.lockedUntil = until?.toISOString() ?? null
      })
    )
  }

  /** Clears the account's login blocks on every instance (also done by a password reset). */
  async unlock(actor: Actor, id: number) {
    const user = await findOr404(User, id)
    await actor.bouncer
      .with(UserPolicy)
      .authorize('unlock', await accountHolding(db.connection(), user.id))
    await unlockAccount(user)
    // The blocks live in the limiter's store, which writes through its own connection: the audit
    // row follows the unlock instead of sharing its transaction.
    await audit(db.connection(), actor, { targetType: 'user', targetId: user.id })
    return this.show(id)
  }

  async create(actor: Actor, data: AccountInput) {
    const roleIds = uniqueIds(data.roleIds)
    const user = await createAccount(
      { ...data, roleIds },
      {
        beforeInsert: async (trx) => {
          await assertIdsExist('roles', roleIds, 'roleIds', trx)
          await actor.bouncer.with(UserPolicy).authorize('create', await roleGrants(trx, roleIds))
        },
        alsoInTransaction: (trx, created) =>
          audit(trx, actor, {
            targetType: 'user',
            targetId: created.id,
            changes: { ...changedFields({}, created.$attributes), roleIds: [[], roleIds] },
          }),
      }
    )
    return this.show(user.id)
  }

  async update(actor: Actor, id: number, data: UpdateUserData) {
    await db.transaction(async (trx) => {
      await lockSuperAdmins(trx)
      const user = await findOr404(User, id, trx)
      const target = await accountHolding(trx, user.id)
      await actor.bouncer.with(UserPolicy).authorize('update', target)
      const before = { ...user.$attributes }

      if (data.status === 'disabled' && user.status === 'enabled') {
        if (target.isSuperAdmin && (await otherEnabledSuperAdmins(user.id, trx)) === 0) {
          throw forbidden(LAST_SUPER_ADMIN)
        }
        if (user.id === actor.id) throw forbidden('You cannot disable your own account')
        // The guard rejects disabled accounts already; the bump also kills tokens for good, so
        // re-enabling the account does not revive them (nor its device tokens).
        user.tokenVersion = user.tokenVersion + 1
        await revokeDevices(user.id, trx)
        await endSessionsOf(user.id, 'account_disabled', trx)
      }
      if (data.nickname !== undefined) user.nickname = data.nickname
      if (data.email !== undefined) user.email = data.email
      if (data.status !== undefined) user.status = data.status
      await user.save()
      await audit(trx, actor, {
        targetType: 'user',
        targetId: user.id,
        changes: changedFields(before, user.$attributes),
      })
    })
    return this.show(id)
  }

  async destroy(actor: Actor, id: number) {
    await db.transaction(async (trx) => {
      await lockSuperAdmins(trx)
      const user = await findOr404(User, id, trx)
      const target = await accountHolding(trx, user.id)
      await actor.bouncer.with(UserPolicy).authorize('delete', target)
      if (
        target.isSuperAdmin &&
        user.status === 'enabled' &&
        (await otherEnabledSuperAdmins(user.id, trx)) === 0
      ) {
        throw forbidden(LAST_SUPER_ADMIN)
      }
      if (user.id === actor.id) throw forbidden('You cannot delete your own account')
      // user_roles rows go with it (FK cascade); articles keep existing with author_id = NULL.
      // With the row gone every JWT of the account fails its next request.
      const before = { ...user.$attributes }
      await user.delete()
      await audit(trx, actor, {
        targetType: 'user',
        targetId: user.id,
        changes: changedFields(before, {}),
      })
    })
  }

  /** Replaces the account's role set (PUT semantics); only the difference is written. */
  async assignRoles(actor: Actor, id: number, roleIdsGiven: number[]) {
    const roleIds = uniqueIds(roleIdsGiven)
    await db.transaction(async (trx) => {
      await lockSuperAdmins(trx)
      const user = await findOr404(User, id, trx)
      await assertIdsExist('roles', roleIds, 'roleIds', trx)
      const target = await accountHolding(trx, user.id)
      const current = await readLinks(trx, LINKS.userRoles, user.id)
      const added = await roleGrants(
        trx,
        roleIds.filter((roleId) => !current.has(roleId))
      )
      await actor.bouncer.with(UserPolicy).authorize('assignRoles', target, added)
      const next = await roleGrants(trx, roleIds)
      const keepsSuper = next.some((role) => role.isSuperAdmin)
      if (
        target.isSuperAdmin &&
        !keepsSuper &&
        user.status === 'enabled' &&
        (await otherEnabledSuperAdmins(user.id, trx)) === 0
      ) {
        throw forbidden(LAST_SUPER_ADMIN)
      }
      if (user.id === actor.id) throw forbidden('You cannot change your own roles')
      await writeLinkDifference(trx, LINKS.userRoles, user.id, current, roleIds)
      await audit(trx, actor, {
        targetType: 'user',
        targetId: user.id,
        changes: changedFields(
          { roleIds: [...current].sort((a, b) => a - b) },
          { roleIds: [...roleIds].sort((a, b) => a - b) }
        ),
      })
    })
    return this.show(id)
  }

  /** Same service as `node ace user:reset-password`: policy, argon2id, tokenVersion + 1. */
  async resetPassword(actor: Actor, id: number, password: string) {
    const user = await findOr404(User, id)
    if (user.id === actor.id) {
      // Without the current password: use PUT /api/auth/password for your own account.
      throw forbidden('Change your own password with PUT /api/auth/password')
    }
    await actor.bouncer
      .with(UserPolicy)
      .authorize('resetPassword', await accountHolding(db.connection(), user.id))
    await setPassword(user, password, 'password', (trx) =>
      audit(trx, actor, {
        targetType: 'user',
        targetId: user.id,
        changes: { password: [MASKED, MASKED] },
      })
    )
    return this.show(id)
  }
}
