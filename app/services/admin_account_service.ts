import { randomBytes } from 'node:crypto'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { Infer } from '@vinejs/vine/types'
import User from '#models/user'
import Role, { SUPER_ADMIN_ROLE } from '#models/role'
import { FieldError, conflict } from '#exceptions/api_exception'
import adminAuthConfig from '#config/admin_auth'
import { assertPasswordPolicy } from '#services/password_policy'
import hash from '@adonisjs/core/services/hash'
import { hashGate } from '#core/cpu_gates'
import { findAccount, hashPassword } from '#auth/passwords'
import { deviceIdsOf, revokeDevices } from '#auth/device_tokens'
import type { Client } from '#core/client'
import { endSessionsOf } from '#auth/sessions'
import { unlockKeys } from '#auth/limits'
import { accountLimitKeys } from '#auth/login_limiter'
import type { createUserValidator } from '#validators/admin/user'
import { userWrites } from '#resources/users'
import { passkeyIdsOf } from '#auth/passkeys'

/** A random password that passes the policy: 18 characters from 13 random bytes. */
export function generatePassword() {
  return randomBytes(13).toString('base64url').slice(0, 16) + 'a1'
}

type InTransaction = (trx: TransactionClientContract) => Promise<unknown>

/**
 * Remembers a digest the account has had, keeping only the latest PASSWORD_HISTORY (the current
 * one included), in the transaction that sets it.
 */
async function rememberPassword(trx: TransactionClientContract, userId: number, digest: string) {
  const keep = adminAuthConfig.passwords.history
  const rows = trx.from('password_history').where('user_id', userId)
  if (keep === 0) return rows.delete()
  await rememberFirstPasswords(trx, [{ userId, digest }])
  const kept = trx
    .from('password_history')
    .select('id')
    .where('user_id', userId)
    .orderBy('id', 'desc')
    .limit(keep)
  await rows.whereNotIn('id', kept).delete()
}

/** The first password of new accounts joins their (empty) history, in batches. */
async function rememberFirstPasswords(
  trx: TransactionClientContract,
  rows: { userId: number; digest: string }[]
) {
  if (adminAuthConfig.passwords.history === 0) return
  const createdAt = DateTime.utc().toFormat(trx.dialect.dateTimeFormat)
  const values = rows.map(({ userId, digest }) => ({
    user_id: userId,
    digest,
    created_at: createdAt,
  }))
  for (let i = 0; i < values.length; i += 500) {
    await trx.table('password_history').multiInsert(values.slice(i, i + 500))
  }
}

/**
 * Refuses (422, rule `history`) a password among the account's latest PASSWORD_HISTORY: the
 * current digest and the remembered ones, verified one at a time behind the hash gate.
 */
async function assertNotReused(user: User, password: string, field: string) {
  const keep = adminAuthConfig.passwords.history
  if (keep === 0) return
  const rows: { digest: string }[] = await db
    .from('password_history')
    .select('digest')
    .where('user_id', user.id)
    .orderBy('id', 'desc')
    .limit(keep)
  const digests = [...new Set([user.password, ...rows.map((row) => row.digest)])].slice(0, keep)
  for (const digest of digests) {
    if (await hashGate.run('trusted', () => hash.verify(digest, password))) {
      throw new FieldError(field, 'passwordInHistory', 'history', { keep })
    }
  }
}

/**
 * Stores a new digest and increments tokenVersion in the same UPDATE, so every JWT issued before
 * is rejected on its next request; the account's sessions and device tokens end with it, the
 * digest joins the history, and its login blocks are cleared (a reset by an administrator is also
 * an unlock). `mustChange`: someone else chose the password, the owner must change it first.
 */
async function storePassword(
  user: User,
  digest: string,
  mustChange: boolean,
  alsoInTransaction?: InTransaction,
  from: Partial<Client> = {}
) {
  const devices = await deviceIdsOf(user.id)
  await db.transaction(async (trx) => {
    user.useTransaction(trx)
    user.password = digest
    user.tokenVersion = user.tokenVersion + 1
    user.mustChangePassword = mustChange
    user.passwordChangedAt = DateTime.now()
    await user.save()
    await rememberPassword(trx, user.id, digest)
    await revokeDevices(user.id, trx, {
      reason: 'password_changed',
      account: user.account,
      ...from,
    })
    await endSessionsOf(user.id, 'password_changed', trx)
    await alsoInTransaction?.(trx)
  })
  await unlockKeys(accountLimitKeys(user.account, user.id, devices, await passkeyIdsOf(user.id)))
  return user
}

/**
 * The owner's own change (`PUT /api/auth/password`): the policy, then none of the latest
 * PASSWORD_HISTORY passwords (422 `history`, nothing written); clears the forced change and
 * restarts PASSWORD_MAX_AGE_DAYS.
 */
export async function setPassword(
  user: User,
  password: string,
  field = 'password',
  /** More work in the same transaction (the caller's audit row). */
  alsoInTransaction?: InTransaction,
  /** Where the change came from (the login-log row of the revoked devices). */
  from?: Partial<Client>
) {
  await assertPasswordPolicy(password, user.account, field)
  await assertNotReused(user, password, field)
  return storePassword(user, await hashPassword(password), false, alsoInTransaction, from)
}

/**
 * A password chosen by someone else: the admin reset endpoint and `node ace user:reset-password`.
 * The owner must change it at the next sign-in (E_PASSWORD_CHANGE_REQUIRED). The history is not
 * checked here (it would tell an administrator which passwords the account used), but the
 * password joins it, so the owner cannot keep it.
 */
export async function resetPassword(
  user: User,
  password: string,
  alsoInTransaction?: InTransaction,
  from?: Partial<Client>
) {
  await assertPasswordPolicy(password, user.account, 'password')
  return storePassword(user, await hashPassword(password), true, alsoInTransaction, from)
}

/** Clears an account's login blocks on every instance: `node ace user:unlock`, the admin endpoint. */
export async function unlockAccount(user: User) {
  const devices = await deviceIdsOf(user.id)
  await unlockKeys(accountLimitKeys(user.account, user.id, devices, await passkeyIdsOf(user.id)))
}

/** A new account, as POST /api/admin/users takes it (defaults: newAccount). */
type AccountInput = Infer<typeof createUserValidator>

export type CreateAccountOptions = {
  /** Also grant the protected super_admin role (the seeder, `user:create --super-admin`). */
  superAdmin?: boolean
  /** Checks in the account's transaction, before the insert (the API: roles exist, grant rule). */
  beforeInsert?: (trx: TransactionClientContract) => Promise<unknown>
  /** More work in the same transaction, after the account and its role links (the audit row). */
  alsoInTransaction?: (trx: TransactionClientContract, user: User) => Promise<unknown>
}

/**
 * What a new account starts with (createAccount, importAccounts): each field left out gets its
 * default (declared with the field: `userWrites` in app/resources/users.ts); the password was
 * chosen by someone else than the owner, so the owner changes it at the first sign-in.
 */
function newAccount(input: AccountInput, digest: string) {
  const { password, roleIds, ...fields } = userWrites.withDefaults(input)
  return {
    ...fields,
    password: digest,
    tokenVersion: 0,
    mustChangePassword: true,
    passwordChangedAt: DateTime.now(),
  }
}

/**
 * Generated passwords for `count` new accounts with their digests (the light `generated` hasher,
 * config/hash.ts), in small batches so logins waiting for the hash threads are not queued
 * behind thousands. Computed before the import's transaction opens.
 */
export async function generateCredentials(count: number) {
  const generator = hash.use('generated')
  const credentials: { password: string; digest: string }[] = []
  for (let i = 0; i < count; i += 16) {
    const passwords = Array.from({ length: Math.min(16, count - i) }, generatePassword)
    const digests = await Promise.all(passwords.map((password) => generator.make(password)))
    passwords.forEach((password, j) => credentials.push({ password, digest: digests[j] }))
  }
  return credentials
}

/**
 * Accounts of the user import (app/services/admin/user_import.ts), in the caller's transaction
 * after its checks: each with its credential (generateCredentials), its role links and its
 * history.
 */
export async function importAccounts(
  trx: TransactionClientContract,
  inputs: (Omit<AccountInput, 'password'> & { roleIds: number[] })[],
  credentials: { digest: string }[]
) {
  const users = await User.createMany(
    inputs.map((input, i) => newAccount({ ...input, password: '' }, credentials[i].digest)),
    { client: trx }
  )
  await rememberFirstPasswords(
    trx,
    users.map((user, i) => ({ userId: user.id, digest: credentials[i].digest }))
  )
  const links = users.flatMap((user, i) =>
    inputs[i].roleIds.map((roleId) => ({ user_id: user.id, role_id: roleId }))
  )
  for (let i = 0; i < links.length; i += 500) {
    await trx.table('user_roles').multiInsert(links.slice(i, i + 500))
  }
  return users
}

/**
 * Creates an administrator: the one path of the admin API, `node ace user:create` and the seeder.
 * The password was chosen by someone else than the owner: the account must change it first.
 * Password policy (422), an existing account in any letter case (409 E_CONFLICT; a concurrent
 * create loses at the unique index on lower(account)), then the digest, and the account with its
 * role links in one transaction.
 */
export async function createAccount(input: AccountInput, options: CreateAccountOptions = {}) {
  const { account, password } = input
  await assertPasswordPolicy(password, account)
  const existing = await findAccount(account)
  if (existing) {
    throw conflict('accountExists', { account: existing.account })
  }
  const digest = await hashPassword(password)
  return db.transaction(async (trx) => {
    await options.beforeInsert?.(trx)
    const roleIds = [...(input.roleIds ?? [])]
    if (options.superAdmin) {
      const role = await Role.findByOrFail('code', SUPER_ADMIN_ROLE, { client: trx })
      roleIds.push(role.id)
    }
    const user = await User.create(newAccount(input, digest), { client: trx })
    await rememberPassword(trx, user.id, digest)
    if (roleIds.length) await user.related('roles').attach(roleIds, trx)
    await options.alsoInTransaction?.(trx, user)
    return user
  })
}
