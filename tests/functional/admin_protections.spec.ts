import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import Role from '#models/role'
import { ALL_PERMISSION_CODES } from '#auth/permissions'
import { isolate, resetDatabase, withRealCommits } from '#tests/helpers/database'
import { RoleFactory } from '#database/factories/role_factory'
import { UserFactory, superAdminUser, userWithPermissions } from '#database/factories/user_factory'

/**
 * The super-admin protections (docs/admin-modules.md, "Protections"), each tried by an ordinary
 * administrator holding every permission code through a normal role (so only the protection
 * stands in the way) and by a super administrator.
 */
const seededAdmin = () => User.findByOrFail('account', 'admin')
const superRole = () => Role.findByOrFail('code', 'super_admin')
const ordinaryAdmin = async () => (await userWithPermissions(ALL_PERMISSION_CODES)).user
const roleIdsOf = async (userId: number) =>
  (await db.from('user_roles').where('user_id', userId)).map((row) => Number(row.role_id)).sort()

type Side = 'ordinary administrator' | 'super administrator'
const SIDES: Side[] = ['ordinary administrator', 'super administrator']
const actor = (side: Side) => (side === 'super administrator' ? seededAdmin() : ordinaryAdmin())

test.group('Protections: the super_admin role', (group) => {
  isolate(group)

  test('cannot be deleted, by an {$self}')
    .with(SIDES)
    .run(async ({ client, assert }, side) => {
      const role = await superRole()
      const response = await client.delete(`/api/admin/roles/${role.id}`).loginAs(await actor(side))
      response.assertStatus(403)
      assert.equal(response.body().errors[0].code, 'E_FORBIDDEN')
      assert.isNotNull(await Role.find(role.id))
      assert.lengthOf(await db.from('user_roles').where('role_id', role.id), 1)
    })

  test('cannot be disabled, by an {$self}')
    .with(SIDES)
    .run(async ({ client, assert }, side) => {
      const role = await superRole()
      const response = await client
        .put(`/api/admin/roles/${role.id}`)
        .json({ status: 'disabled' })
        .loginAs(await actor(side))
      response.assertStatus(403)
      ;(await client.get('/api/admin/users').loginAs(await seededAdmin())).assertStatus(200)
      await role.refresh()
      assert.equal(role.status, 'enabled')
    })

  test('cannot be re-coded, by an {$self}')
    .with(SIDES)
    .run(async ({ client, assert }, side) => {
      const role = await superRole()
      const response = await client
        .put(`/api/admin/roles/${role.id}`)
        .json({ code: 'root' })
        .loginAs(await actor(side))
      response.assertStatus(403)
      await role.refresh()
      assert.equal(role.code, 'super_admin')
    })

  test('cannot have its menus changed, by an {$self}')
    .with(SIDES)
    .run(async ({ client, assert }, side) => {
      const role = await superRole()
      const menu = await db.from('menus').select('id').firstOrFail()
      const response = await client
        .put(`/api/admin/roles/${role.id}/menus`)
        .json({ menuIds: [menu.id] })
        .loginAs(await actor(side))
      response.assertStatus(403)
      assert.lengthOf(await db.from('role_menus').where('role_id', role.id), 0)
    })

  test('renaming it is reserved to a super administrator', async ({ client, assert }) => {
    const role = await superRole()
    const byOrdinary = await client
      .put(`/api/admin/roles/${role.id}`)
      .json({ name: 'Owners' })
      .loginAs(await ordinaryAdmin())
    byOrdinary.assertStatus(403)
    const bySuper = await client
      .put(`/api/admin/roles/${role.id}`)
      .json({ name: 'Owners', status: 'enabled', code: 'super_admin' })
      .loginAs(await seededAdmin())
    bySuper.assertStatus(200)
    assert.containSubset(bySuper.body().data, {
      name: 'Owners',
      code: 'super_admin',
      status: 'enabled',
      isSystem: true,
    })
  })

  test('isSystem cannot be set or cleared through the body', async ({ client, assert }) => {
    const created = await client
      .post('/api/admin/roles')
      .json({ code: 'sneaky', name: 'Sneaky', isSystem: true, is_system: true })
      .loginAs(await seededAdmin())
    created.assertStatus(201)
    assert.isFalse(created.body().data.isSystem)
    assert.isFalse((await Role.findByOrFail('code', 'sneaky')).isSystem)

    const role = await superRole()
    const cleared = await client
      .put(`/api/admin/roles/${role.id}`)
      .json({ isSystem: false })
      .loginAs(await seededAdmin())
    cleared.assertStatus(200)
    assert.isTrue((await superRole()).isSystem)
    // Still undeletable.
    ;(await client.delete(`/api/admin/roles/${role.id}`).loginAs(await seededAdmin())).assertStatus(
      403
    )
  })
})

test.group('Protections: granting super_admin', (group) => {
  isolate(group)

  test('through PUT users/:id/roles: ordinary administrator 403, super administrator 200', async ({
    client,
    assert,
  }) => {
    const role = await superRole()
    const target = await UserFactory.create()
    const byOrdinary = await client
      .put(`/api/admin/users/${target.id}/roles`)
      .json({ roleIds: [role.id] })
      .loginAs(await ordinaryAdmin())
    byOrdinary.assertStatus(403)
    assert.deepEqual(await roleIdsOf(target.id), [])

    const bySuper = await client
      .put(`/api/admin/users/${target.id}/roles`)
      .json({ roleIds: [role.id] })
      .loginAs(await seededAdmin())
    bySuper.assertStatus(200)
    assert.deepEqual(await roleIdsOf(target.id), [role.id])
    // The new super admin holds every permission on its next request.
    ;(await client.get('/api/admin/menus/tree').loginAs(target)).assertStatus(200)
  })

  test('through POST users with roleIds: ordinary administrator 403, super administrator 201', async ({
    client,
    assert,
  }) => {
    const role = await superRole()
    const body = { account: 'root2', password: 'Second-root-passphrase', roleIds: [role.id] }
    const byOrdinary = await client
      .post('/api/admin/users')
      .json(body)
      .loginAs(await ordinaryAdmin())
    byOrdinary.assertStatus(403)
    assert.isNull(await User.findBy('account', 'root2'))

    const bySuper = await client
      .post('/api/admin/users')
      .json(body)
      .loginAs(await seededAdmin())
    bySuper.assertStatus(201)
    assert.deepEqual(bySuper.body().data.roleIds, [role.id])
  })
})

test.group('Protections: super-admin accounts', (group) => {
  isolate(group)

  test('update: ordinary administrator 403, super administrator 200', async ({
    client,
    assert,
  }) => {
    const other = await superAdminUser({ nickname: 'Other root' })
    const byOrdinary = await client
      .put(`/api/admin/users/${other.id}`)
      .json({ nickname: 'Hijacked' })
      .loginAs(await ordinaryAdmin())
    byOrdinary.assertStatus(403)
    assert.equal((await User.findOrFail(other.id)).nickname, 'Other root')

    const bySuper = await client
      .put(`/api/admin/users/${other.id}`)
      .json({ nickname: 'Renamed root' })
      .loginAs(await seededAdmin())
    bySuper.assertStatus(200)
    assert.equal((await User.findOrFail(other.id)).nickname, 'Renamed root')
  })

  test('disable: ordinary administrator 403, super administrator 200 (its token then 401)', async ({
    client,
    assert,
  }) => {
    const other = await superAdminUser()
    const byOrdinary = await client
      .put(`/api/admin/users/${other.id}`)
      .json({ status: 'disabled' })
      .loginAs(await ordinaryAdmin())
    byOrdinary.assertStatus(403)
    assert.equal((await User.findOrFail(other.id)).status, 'enabled')

    ;(await client.get('/api/admin/users').loginAs(other)).assertStatus(200)
    const bySuper = await client
      .put(`/api/admin/users/${other.id}`)
      .json({ status: 'disabled' })
      .loginAs(await seededAdmin())
    bySuper.assertStatus(200)
    assert.equal((await User.findOrFail(other.id)).status, 'disabled')
    ;(await client.get('/api/admin/users').loginAs(other)).assertStatus(401)
  })

  test('password reset: ordinary administrator 403, super administrator 200', async ({
    client,
    assert,
  }) => {
    const other = await superAdminUser()
    const byOrdinary = await client
      .post(`/api/admin/users/${other.id}/password-reset`)
      .json({ password: 'Taken-over-passphrase-1' })
      .loginAs(await ordinaryAdmin())
    byOrdinary.assertStatus(403)
    assert.equal((await User.findOrFail(other.id)).tokenVersion, 0)

    const bySuper = await client
      .post(`/api/admin/users/${other.id}/password-reset`)
      .json({ password: 'Rotated-passphrase-22' })
      .loginAs(await seededAdmin())
    bySuper.assertStatus(200)
    assert.equal((await User.findOrFail(other.id)).tokenVersion, 1)
  })

  test('delete: ordinary administrator 403, super administrator 204', async ({
    client,
    assert,
  }) => {
    const other = await superAdminUser()
    ;(
      await client.delete(`/api/admin/users/${other.id}`).loginAs(await ordinaryAdmin())
    ).assertStatus(403)
    assert.isNotNull(await User.find(other.id))
    ;(
      await client.delete(`/api/admin/users/${other.id}`).loginAs(await seededAdmin())
    ).assertStatus(204)
    assert.isNull(await User.find(other.id))
  })

  test('removing the role: ordinary administrator 403, super administrator 200', async ({
    client,
    assert,
  }) => {
    const other = await superAdminUser()
    const plain = await RoleFactory.create()
    const byOrdinary = await client
      .put(`/api/admin/users/${other.id}/roles`)
      .json({ roleIds: [plain.id] })
      .loginAs(await ordinaryAdmin())
    byOrdinary.assertStatus(403)
    assert.deepEqual(await roleIdsOf(other.id), [(await superRole()).id])

    const bySuper = await client
      .put(`/api/admin/users/${other.id}/roles`)
      .json({ roleIds: [plain.id] })
      .loginAs(await seededAdmin())
    bySuper.assertStatus(200)
    assert.deepEqual(await roleIdsOf(other.id), [plain.id])
    // No longer a super admin on its next request.
    ;(await client.get('/api/admin/users').loginAs(other)).assertStatus(403)
  })

  test('an ordinary administrator cannot touch the seeded super admin either', async ({
    client,
  }) => {
    const admin = await seededAdmin()
    const ordinary = await ordinaryAdmin()
    const attempts = [
      client.put(`/api/admin/users/${admin.id}`).json({ nickname: 'x' }),
      client.put(`/api/admin/users/${admin.id}`).json({ status: 'disabled' }),
      client.delete(`/api/admin/users/${admin.id}`),
      client.put(`/api/admin/users/${admin.id}/roles`).json({ roleIds: [] }),
      client
        .post(`/api/admin/users/${admin.id}/password-reset`)
        .json({ password: 'Ab-12345678-Quartz' }),
    ]
    for (const attempt of attempts) (await attempt.loginAs(ordinary)).assertStatus(403)
    ;(await client.get('/api/admin/users').loginAs(admin)).assertStatus(200)
  })
})

test.group('Protections: the last enabled super administrator', (group) => {
  isolate(group)

  test('cannot be disabled, deleted or lose the role (the seeded admin alone)', async ({
    client,
    assert,
  }) => {
    const admin = await seededAdmin()
    const plain = await RoleFactory.create()
    const attempts = [
      client.put(`/api/admin/users/${admin.id}`).json({ status: 'disabled' }),
      client.delete(`/api/admin/users/${admin.id}`),
      client.put(`/api/admin/users/${admin.id}/roles`).json({ roleIds: [plain.id] }),
    ]
    for (const attempt of attempts) {
      const response = await attempt.loginAs(admin)
      response.assertStatus(403)
      assert.include(response.body().errors[0].message, 'last enabled super administrator')
    }
    const stored = await User.findOrFail(admin.id)
    assert.equal(stored.status, 'enabled')
    assert.deepEqual(await roleIdsOf(admin.id), [(await superRole()).id])
  })

  test('a disabled super admin does not count: with the other one disabled, the rule still holds', async ({
    client,
    assert,
  }) => {
    const admin = await seededAdmin()
    const other = await superAdminUser()
    // Two enabled super admins: one may disable the other.
    ;(
      await client.put(`/api/admin/users/${other.id}`).json({ status: 'disabled' }).loginAs(admin)
    ).assertStatus(200)
    const response = await client
      .put(`/api/admin/users/${admin.id}/roles`)
      .json({ roleIds: [] })
      .loginAs(admin)
    response.assertStatus(403)
    assert.include(response.body().errors[0].message, 'last enabled super administrator')
    // A disabled super admin may be deleted: it is not the last enabled one.
    ;(await client.delete(`/api/admin/users/${other.id}`).loginAs(admin)).assertStatus(204)
  })

  test('with a second enabled super admin, one super admin still cannot change their own roles', async ({
    client,
    assert,
  }) => {
    const admin = await seededAdmin()
    await superAdminUser()
    const response = await client
      .put(`/api/admin/users/${admin.id}/roles`)
      .json({ roleIds: [] })
      .loginAs(admin)
    response.assertStatus(403)
    assert.include(response.body().errors[0].message, 'own roles')
    const self = await client.delete(`/api/admin/users/${admin.id}`).loginAs(admin)
    self.assertStatus(403)
    assert.include(self.body().errors[0].message, 'own account')
  })
})

test.group('Protections: concurrent writes', (group) => {
  withRealCommits(group)

  test('two super admins disabling each other at once: one wins, one enabled super admin remains', async ({
    client,
    assert,
  }) => {
    for (let round = 0; round < 5; round++) {
      await resetDatabase()
      const first = await seededAdmin()
      const second = await superAdminUser()
      const responses = await Promise.all([
        client.put(`/api/admin/users/${second.id}`).json({ status: 'disabled' }).loginAs(first),
        client.put(`/api/admin/users/${first.id}`).json({ status: 'disabled' }).loginAs(second),
      ])
      const statuses = responses.map((response) => response.status()).sort()
      assert.equal(statuses.filter((status) => status === 200).length, 1, `round ${round}`)
      // The loser is refused: 403 (last super admin) or 401 (its own account was disabled first).
      assert.oneOf(
        statuses.find((status) => status !== 200),
        [401, 403]
      )
      const enabled = await User.query()
        .where('status', 'enabled')
        .whereHas('roles', (roles) => roles.where('code', 'super_admin'))
      assert.lengthOf(enabled, 1, `round ${round}`)
    }
  })
})
