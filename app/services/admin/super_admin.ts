import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import { SUPER_ADMIN_ROLE } from '#models/role'
import type Role from '#models/role'

/**
 * Facts about super-admin accounts, read inside the transaction of the write they guard.
 *
 * `lockSuperAdmins` serializes every write that could remove an enabled super admin: on
 * PostgreSQL it row-locks the super_admin role, so two administrators disabling each other at
 * the same moment cannot both pass the "another enabled super admin remains" check. SQLite runs
 * one write transaction at a time already.
 */
export async function lockSuperAdmins(trx: QueryClientContract) {
  if (trx.dialect.name !== 'postgres') return
  await trx.from('roles').select('id').where('code', SUPER_ADMIN_ROLE).forUpdate()
}

/** Enabled accounts other than `userId` that hold the (enabled) super_admin role. */
export async function otherEnabledSuperAdmins(userId: number, trx: QueryClientContract) {
  const [row] = await trx
    .from('users')
    .join('user_roles', 'user_roles.user_id', 'users.id')
    .join('roles', 'roles.id', 'user_roles.role_id')
    .where('roles.code', SUPER_ADMIN_ROLE)
    .where('roles.status', 'enabled')
    .where('users.status', 'enabled')
    .whereNot('users.id', userId)
    .count('* as total')
  return Number(row.total)
}

/** The seeded super-admin role and any other system role: protected from weakening. */
export function isProtectedRole(role: Role) {
  return role.isSystem || role.code === SUPER_ADMIN_ROLE
}
