import { randomBytes } from 'node:crypto'
import hash from '@adonisjs/core/services/hash'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import User from '#models/user'
import Role, { SUPER_ADMIN_ROLE } from '#models/role'
import { assertPasswordPolicy } from '#services/password_policy'
import { deviceIdsOf, revokeDevices } from '#auth/device_tokens'
import { endSessionsOf } from '#auth/sessions'
import { accountKey, deviceKey, unlockKeys } from '#auth/login_limiter'

/** A random password that passes the policy: 18 characters from 13 random bytes. */
export function generatePassword() {
  return randomBytes(13).toString('base64url').slice(0, 16) + 'a1'
}

/**
 * Sets a new password and increments tokenVersion in the same UPDATE, so every JWT issued before
 * is rejected on its next request; the account's sessions and device tokens end with it, and its login blocks
 * are cleared (a reset by an administrator is also an unlock). Used by `PUT /api/auth/password`,
 * the admin reset endpoint and `node ace user:reset-password`.
 */
export async function setPassword(
  user: User,
  password: string,
  field = 'password',
  /** More work in the same transaction (the caller's audit row). */
  alsoInTransaction?: (trx: TransactionClientContract) => Promise<unknown>
) {
  await assertPasswordPolicy(password, user.account, field)
  const digest = await hash.make(password)
  const devices = await deviceIdsOf(user.id)
  await db.transaction(async (trx) => {
    user.useTransaction(trx)
    user.password = digest
    user.tokenVersion = user.tokenVersion + 1
    await user.save()
    await revokeDevices(user.id, trx)
    await endSessionsOf(user.id, 'password_changed', trx)
    await alsoInTransaction?.(trx)
  })
  await unlockKeys([accountKey(user.account), ...devices.map(deviceKey)])
  return user
}

/** Clears an account's login blocks on every instance: `node ace user:unlock`, the admin endpoint. */
export async function unlockAccount(user: User) {
  const devices = await deviceIdsOf(user.id)
  await unlockKeys([accountKey(user.account), ...devices.map(deviceKey)])
}

/**
 * Creates a super administrator (used by the seeder and `node ace user:create --super-admin`),
 * user and role link in one transaction.
 */
export async function createSuperAdmin(
  account: string,
  password: string,
  nickname = 'Administrator',
  /** More work in the same transaction (the command's audit row). */
  alsoInTransaction?: (trx: TransactionClientContract, user: User) => Promise<unknown>
) {
  await assertPasswordPolicy(password, account)
  const digest = await hash.make(password)
  return db.transaction(async (trx) => {
    const role = await Role.findByOrFail('code', SUPER_ADMIN_ROLE, { client: trx })
    const user = await User.create(
      { account, nickname, password: digest, status: 'enabled', tokenVersion: 0 },
      { client: trx }
    )
    await user.related('roles').attach([role.id], trx)
    await alsoInTransaction?.(trx, user)
    return user
  })
}
