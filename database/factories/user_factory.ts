import factory from '@adonisjs/lucid/factories'
import hash from '@adonisjs/core/services/hash'
import User from '#models/user'
import Role, { SUPER_ADMIN_ROLE } from '#models/role'
import { roleWithPermissions } from '#database/factories/role_factory'

/**
 * The password of every account the tests create (the one password constant of the tests); its
 * argon2id digest is computed once per process (hashing is slow on purpose).
 */
export const TEST_PASSWORD = 'Correct-Horse-9-Battery'
let digest: Promise<string> | undefined
export const testPasswordDigest = () => (digest ??= hash.make(TEST_PASSWORD))

/** Administrator accounts for tests, enabled and without roles unless told otherwise. */
export const UserFactory = factory
  .define(User, async ({ faker }) => ({
    account: `user_${faker.string.alphanumeric({ length: 10, casing: 'lower' })}`,
    nickname: faker.person.firstName(),
    email: null,
    password: await testPasswordDigest(),
    status: 'enabled' as const,
    tokenVersion: 0,
  }))
  .state('disabled', (user) => {
    user.status = 'disabled'
  })
  .build()

/** An enabled account holding one ordinary role that grants exactly `codes`. */
export async function userWithPermissions(codes: readonly string[], attributes = {}) {
  const role = await roleWithPermissions(codes)
  const user = await UserFactory.merge(attributes).create()
  await user.related('roles').attach([role.id])
  return { user, role }
}

/** An account holding the seeded super_admin role. */
export async function superAdminUser(attributes = {}) {
  const role = await Role.findByOrFail('code', SUPER_ADMIN_ROLE)
  const user = await UserFactory.merge(attributes).create()
  await user.related('roles').attach([role.id])
  return user
}
