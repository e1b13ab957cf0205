import hash from '@adonisjs/core/services/hash'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import User, { type UserStatus } from '#models/user'
import { SUPER_ADMIN_ROLE } from '#models/role'
import { conflict, forbidden } from '#exceptions/api_exception'
import { assertPasswordPolicy } from '#services/password_policy'
import { setPassword } from '#services/admin_account_service'
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
import {
  holdsSuperAdmin,
  lockSuperAdmins,
  otherEnabledSuperAdmins,
  superAdminRoleId,
} from '#services/admin/super_admin'
import { assertMayGrantRoles, assertMayTakeOver } from '#services/admin/grants'

export type UserFilters = {
  pageNum?: number
  pageSize?: number
  keyword?: string
  status?: UserStatus
  roleId?: number
}

export type CreateUserData = {
  account: string
  password: string
  nickname?: string
  email?: string | null
  status?: UserStatus
  roleIds?: number[]
}

export type UpdateUserData = { nickname?: string; email?: string | null; status?: UserStatus }

const ONLY_SUPER_ADMIN = 'Only a super administrator may change a super administrator account'
const LAST_SUPER_ADMIN = 'The last enabled super administrator must stay enabled and keep the role'

/**
 * Administrator accounts. Every rule that protects super administrators lives here, decided
 * inside the transaction of the write it guards.
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
    return { rows: page.all(), total: page.total, pageNum, pageSize }
  }

  async show(id: number, client?: TransactionClientContract) {
    const user = await findOr404(User, id, client)
    await user.load('roles', (roles) => roles.orderBy('sort').orderBy('id'))
    return user
  }

  async create(actor: Actor, data: CreateUserData) {
    assertPasswordPolicy(data.password, data.account)
    // Accounts differing only in case would be confusing at login: refused like a duplicate.
    const taken = await User.query()
      .whereRaw('LOWER(account) = ?', [data.account.toLowerCase()])
      .first()
    if (taken) throw conflict('The account is already taken')
    const roleIds = uniqueIds(data.roleIds)
    const digest = await hash.make(data.password)

    const user = await db.transaction(async (trx) => {
      await assertIdsExist('roles', roleIds, 'roleIds', trx)
      if (roleIds.includes(await superAdminRoleId(trx)) && !actor.isSuperAdmin) {
        throw forbidden(`Only a super administrator may grant the ${SUPER_ADMIN_ROLE} role`)
      }
      // Every role of a new account is granted by the caller.
      await assertMayGrantRoles(actor, roleIds, trx)
      // A unique violation on account (a concurrent create) is answered 409 by the handler.
      const created = await User.create(
        {
          account: data.account,
          password: digest,
          nickname: data.nickname ?? data.account,
          email: data.email ?? null,
          status: data.status ?? 'enabled',
          tokenVersion: 0,
        },
        { client: trx }
      )
      // Same transaction: if a link row fails, the account is not created either.
      if (roleIds.length) await created.related('roles').attach(roleIds, trx)
      return created
    })
    return this.show(user.id)
  }

  async update(actor: Actor, id: number, data: UpdateUserData) {
    await db.transaction(async (trx) => {
      await lockSuperAdmins(trx)
      const user = await findOr404(User, id, trx)
      const targetIsSuper = await holdsSuperAdmin(user.id, trx)
      if (targetIsSuper && !actor.isSuperAdmin) throw forbidden(ONLY_SUPER_ADMIN)

      if (data.status === 'disabled' && user.status === 'enabled') {
        if (targetIsSuper && (await otherEnabledSuperAdmins(user.id, trx)) === 0) {
          throw forbidden(LAST_SUPER_ADMIN)
        }
        if (user.id === actor.id) throw forbidden('You cannot disable your own account')
        // The guard rejects disabled accounts already; the bump also kills tokens for good, so
        // re-enabling the account does not revive them.
        user.tokenVersion = user.tokenVersion + 1
      }
      if (data.nickname !== undefined) user.nickname = data.nickname
      if (data.email !== undefined) user.email = data.email
      if (data.status !== undefined) user.status = data.status
      await user.save()
    })
    return this.show(id)
  }

  async destroy(actor: Actor, id: number) {
    await db.transaction(async (trx) => {
      await lockSuperAdmins(trx)
      const user = await findOr404(User, id, trx)
      const targetIsSuper = await holdsSuperAdmin(user.id, trx)
      if (targetIsSuper && !actor.isSuperAdmin) throw forbidden(ONLY_SUPER_ADMIN)
      if (
        targetIsSuper &&
        user.status === 'enabled' &&
        (await otherEnabledSuperAdmins(user.id, trx)) === 0
      ) {
        throw forbidden(LAST_SUPER_ADMIN)
      }
      if (user.id === actor.id) throw forbidden('You cannot delete your own account')
      // user_roles rows go with it (FK cascade); articles keep existing with author_id = NULL.
      // With the row gone every JWT of the account fails its next request.
      await user.delete()
    })
  }

  /** Replaces the account's role set (PUT semantics). Added roles are checked by grants.ts. */
  async assignRoles(actor: Actor, id: number, roleIdsGiven: number[]) {
    const roleIds = uniqueIds(roleIdsGiven)
    await db.transaction(async (trx) => {
      await lockSuperAdmins(trx)
      const user = await findOr404(User, id, trx)
      await assertIdsExist('roles', roleIds, 'roleIds', trx)
      const superId = await superAdminRoleId(trx)
      const targetIsSuper = await holdsSuperAdmin(user.id, trx)
      const grants = roleIds.includes(superId)

      if (targetIsSuper && !actor.isSuperAdmin) throw forbidden(ONLY_SUPER_ADMIN)
      if (grants && !targetIsSuper && !actor.isSuperAdmin) {
        throw forbidden(`Only a super administrator may grant the ${SUPER_ADMIN_ROLE} role`)
      }
      if (
        targetIsSuper &&
        !grants &&
        user.status === 'enabled' &&
        (await otherEnabledSuperAdmins(user.id, trx)) === 0
      ) {
        throw forbidden(LAST_SUPER_ADMIN)
      }
      if (user.id === actor.id) throw forbidden('You cannot change your own roles')

      // The current set is read anyway to write only the difference; removals are not checked.
      const current = await readLinks(trx, LINKS.userRoles, user.id)
      const added = roleIds.filter((roleId) => !current.has(roleId))
      await assertMayGrantRoles(actor, added, trx)
      await writeLinkDifference(trx, LINKS.userRoles, user.id, current, roleIds)
    })
    return this.show(id)
  }

  /** Same service as `node ace user:reset-password`: policy, argon2id, tokenVersion + 1. */
  async resetPassword(actor: Actor, id: number, password: string) {
    const user = await findOr404(User, id)
    if (!actor.isSuperAdmin && (await holdsSuperAdmin(user.id, db.connection()))) {
      throw forbidden(ONLY_SUPER_ADMIN)
    }
    if (user.id === actor.id) {
      // Without the current password: use PUT /api/auth/password for your own account.
      throw forbidden('Change your own password with PUT /api/auth/password')
    }
    await assertMayTakeOver(actor, user.id, db.connection())
    await setPassword(user, password)
    return this.show(id)
  }
}
