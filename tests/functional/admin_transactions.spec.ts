import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import Role from '#models/role'
import Menu from '#models/menu'
import { withRealCommits } from '#tests/helpers/database'
import { RoleFactory } from '#database/factories/role_factory'
import { UserFactory } from '#database/factories/user_factory'
import { menuIdsOf, roleIdsOf, seededAdmin } from '#tests/helpers/rbac'

/**
 * Multi-row writes are all-or-nothing. A trigger makes the second statement (the link rows) fail
 * for real inside the database; the first statement must then be rolled back too.
 */
async function failInsertsInto(table: 'user_roles' | 'role_menus' | 'audit_logs') {
  const name = `test_fail_${table}`
  if (db.connection().dialect.name === 'postgres') {
    await db.rawQuery(
      `CREATE OR REPLACE FUNCTION test_fail_insert() RETURNS trigger AS $$
       BEGIN RAISE EXCEPTION 'insert refused by test trigger'; END $$ LANGUAGE plpgsql`
    )
    await db.rawQuery(
      `CREATE TRIGGER ${name} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION test_fail_insert()`
    )
    return async () => {
      await db.rawQuery(`DROP TRIGGER IF EXISTS ${name} ON ${table}`)
    }
  }
  await db.rawQuery(
    `CREATE TRIGGER ${name} BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, 'insert refused by test trigger'); END`
  )
  return async () => {
    await db.rawQuery(`DROP TRIGGER IF EXISTS ${name}`)
  }
}

/** Runs `work` while inserts into `table` fail; the trigger is gone before the next reset. */
async function whileInsertsFail<T>(
  table: 'user_roles' | 'role_menus' | 'audit_logs',
  work: () => Promise<T>
) {
  const drop = await failInsertsInto(table)
  try {
    return await work()
  } finally {
    await drop()
  }
}

test.group('Admin transactions: nothing half-written', (group) => {
  withRealCommits(group)

  test('POST users with roleIds: the account is not created when its role links fail', async ({
    client,
    assert,
  }) => {
    const role = await RoleFactory.create()
    const admin = await seededAdmin()
    const response = await whileInsertsFail('user_roles', () =>
      client
        .post('/api/admin/users')
        .json({ account: 'halfway', password: 'Half-written-passphrase', roleIds: [role.id] })
        .loginAs(admin)
    )
    response.assertStatus(500)
    assert.deepEqual(response.body(), {
      errors: [{ code: 'E_INTERNAL', message: 'Internal server error' }],
    })
    assert.isNull(await User.findBy('account', 'halfway'))
    // Nor its audit row: it was written in the same transaction, which rolled back.
    assert.lengthOf(await db.from('audit_logs'), 0)

    // The same request succeeds once the database accepts the links.
    const retry = await client
      .post('/api/admin/users')
      .json({ account: 'halfway', password: 'Half-written-passphrase', roleIds: [role.id] })
      .loginAs(admin)
    retry.assertStatus(201)
  })

  test('PUT users/:id/roles: the old set survives when inserting the new one fails', async ({
    client,
    assert,
  }) => {
    const [oldRole, newRole] = await RoleFactory.createMany(2)
    const target = await UserFactory.create()
    await target.related('roles').attach([oldRole.id])
    const response = await whileInsertsFail('user_roles', async () =>
      client
        .put(`/api/admin/users/${target.id}/roles`)
        .json({ roleIds: [newRole.id] })
        .loginAs(await seededAdmin())
    )
    response.assertStatus(500)
    assert.deepEqual(await roleIdsOf(target.id), [oldRole.id])
  })

  test('POST roles with menuIds: the role is not created when its menu links fail', async ({
    client,
    assert,
  }) => {
    const menu = await Menu.query().where('type', 'button').firstOrFail()
    const response = await whileInsertsFail('role_menus', async () =>
      client
        .post('/api/admin/roles')
        .json({ code: 'halfway', name: 'Half', menuIds: [menu.id] })
        .loginAs(await seededAdmin())
    )
    response.assertStatus(500)
    assert.isNull(await Role.findBy('code', 'halfway'))
  })

  test('PUT roles/:id/menus: the old set survives when inserting the new one fails', async ({
    client,
    assert,
  }) => {
    const role = await RoleFactory.create()
    const [first, second] = await Menu.query().whereNull('parent_id').orderBy('id')
    await role.related('menus').attach([first.id])
    const response = await whileInsertsFail('role_menus', async () =>
      client
        .put(`/api/admin/roles/${role.id}/menus`)
        .json({ menuIds: [second.id] })
        .loginAs(await seededAdmin())
    )
    response.assertStatus(500)
    assert.deepEqual(await menuIdsOf(role.id), [first.id])
  })
})

test.group('Admin transactions: the audit row shares the write', (group) => {
  withRealCommits(group)

  test('when the audit row cannot be written, the change is taken back too', async ({
    client,
    assert,
  }) => {
    const admin = await seededAdmin()
    const target = await UserFactory.create()
    const role = await RoleFactory.create()
    const menu = await Menu.query().whereNotNull('permission').firstOrFail()
    const writes = [
      () => client.put(`/api/admin/users/${target.id}`).json({ nickname: 'Lost' }),
      () => client.put(`/api/admin/roles/${role.id}/menus`).json({ menuIds: [menu.id] }),
      () =>
        client.post('/api/admin/articles').json({ title: 'Lost', content: 'x', category: 'news' }),
      () => client.delete(`/api/admin/roles/${role.id}`),
    ]
    await whileInsertsFail('audit_logs', async () => {
      for (const write of writes) (await write().loginAs(admin)).assertStatus(500)
    })
    assert.notEqual((await User.findOrFail(target.id)).nickname, 'Lost')
    assert.lengthOf(await db.from('role_menus').where('role_id', role.id), 0)
    assert.lengthOf(await db.from('articles').where('title', 'Lost'), 0)
    assert.isNotNull(await Role.find(role.id))
    assert.lengthOf(await db.from('audit_logs'), 0)
  })
})
