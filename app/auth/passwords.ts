import hash from '@adonisjs/core/services/hash'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import User from '#models/user'
import { hashGate, type Priority } from '#core/cpu_gates'

/**
 * The one way a password becomes a digest (argon2id, config/hash.ts), behind the hash gate:
 * account creation, every password change and reset, a re-hash at sign-in. Callers signed in or
 * local wait in the trusted queue.
 */
export function hashPassword(password: string, priority: Priority = 'trusted') {
  return hashGate.run(priority, () => hash.make(password))
}

/**
 * The account of that name in any letter case (accounts are unique case-insensitively: the
 * unique index on lower(account)), or null.
 */
export function findAccount(account: string, client?: QueryClientContract) {
  return User.query({ client }).whereRaw('lower(account) = ?', [account.toLowerCase()]).first()
}
