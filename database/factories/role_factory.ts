import factory from '@adonisjs/lucid/factories'
import db from '@adonisjs/lucid/services/db'
import Role from '#models/role'
import { withAncestors } from '#services/admin/menu_service'

/** Ordinary (non-system) roles for tests; codes are unique per build. */
export const RoleFactory = factory
  .define(Role, ({ faker }) => ({
    code: `role_${faker.string.alphanumeric({ length: 10, casing: 'lower' })}`,
    name: faker.word.words(2),
    status: 'enabled' as const,
    isSystem: false,
    sort: faker.number.int({ min: 1, max: 100 }),
    remark: null,
  }))
  .state('disabled', (role) => {
    role.status = 'disabled'
  })
  .build()

/**
 * A role granting exactly the given permission codes: their seeded button nodes plus every
 * ancestor (a node only counts when its whole chain is granted).
 */
export async function roleWithPermissions(codes: readonly string[], attributes = {}) {
  const role = await RoleFactory.merge(attributes).create()
  const buttons: { id: number | string }[] = codes.length
    ? await db
        .from('menus')
        .select('id')
        .whereIn('permission', [...codes])
    : []
  const menuIds = await withAncestors(buttons.map((row) => Number(row.id)))
  if (menuIds.length) await role.related('menus').attach(menuIds)
  return role
}
