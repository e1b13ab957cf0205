import { test } from '@japa/runner'
import fc from 'fast-check'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import type User from '#models/user'
import Menu from '#models/menu'
import { PERMISSIONS } from '#auth/permissions'
import { loadAccessSnapshot } from '#auth/access_snapshot'
import { isolate, withRealCommits } from '#tests/helpers/database'
import { countQueries, userWithPermissions, sessionToken } from '#tests/helpers/auth'
import { startAppProcess, readJson } from '#tests/helpers/app_process'
import { roleWithPermissions } from '#database/factories/role_factory'
import { button } from '#tests/helpers/rbac'

/**
 * The access snapshot is cached per (user, access version); the version is bumped by database
 * triggers on roles, menus, user_roles and role_menus (docs/architecture.md, "What a protected request reads").
 * These tests change those tables with raw SQL only, no service involved.
 */
const P = PERMISSIONS

const me = async (client: ApiClient, user: User) => {
  const response = await client.get('/api/auth/me').loginAs(user)
  response.assertStatus(200)
  return response.body().data as { permissions: string[]; roles: { status: string }[] }
}

test.group('Access snapshot cache', (group) => {
  isolate(group)

  test('1 SQL round trip per request when nothing changed, 2 after a change', async ({
    client,
    assert,
  }) => {
    const { user } = await userWithPermissions([P.user.list])
    const { token } = await sessionToken(user.id, user.tokenVersion)
    const get = () => countQueries(() => client.get('/api/auth/me').bearerToken(token))

    const first = await get()
    first.result.assertStatus(200)
    const second = await get()
    assert.lengthOf(second.queries, 1, second.queries.join('\n'))
    const third = await get()
    assert.lengthOf(third.queries, 1)

    await db.rawQuery('UPDATE menus SET sort = sort + 1 WHERE id = ?', [
      (await button(P.user.list)).id,
    ])
    const afterChange = await get()
    assert.lengthOf(afterChange.queries, 2, afterChange.queries.join('\n'))
    assert.lengthOf((await get()).queries, 1)
  })

  test('a raw SQL change to each of the four tables applies to the very next request', async ({
    client,
    assert,
  }) => {
    const { user, role } = await userWithPermissions([P.user.list])
    assert.include((await me(client, user)).permissions, P.user.list)

    // role_menus: a new button link.
    const create = await button(P.user.create)
    await db.rawQuery('INSERT INTO role_menus (role_id, menu_id) VALUES (?, ?)', [
      role.id,
      create.id,
    ])
    assert.include((await me(client, user)).permissions, P.user.create)

    // menus: the button disabled.
    await db.rawQuery("UPDATE menus SET status = 'disabled' WHERE id = ?", [create.id])
    assert.notInclude((await me(client, user)).permissions, P.user.create)

    // roles: the role disabled.
    await db.rawQuery("UPDATE roles SET status = 'disabled' WHERE id = ?", [role.id])
    const disabled = await me(client, user)
    assert.deepEqual(disabled.permissions, [])
    assert.equal(disabled.roles[0].status, 'disabled')
    await db.rawQuery("UPDATE roles SET status = 'enabled' WHERE id = ?", [role.id])
    assert.include((await me(client, user)).permissions, P.user.list)

    // user_roles: the link removed.
    await db.rawQuery('DELETE FROM user_roles WHERE user_id = ?', [user.id])
    const removed = await me(client, user)
    assert.deepEqual(removed.permissions, [])
    assert.deepEqual(removed.roles, [])
  })

  test('property: after random raw writes, /me equals a freshly computed snapshot', async ({
    client,
    assert,
  }) => {
    const { user } = await userWithPermissions([P.user.list])
    const roles = [
      (await userWithPermissions([P.role.list])).role,
      await roleWithPermissions([P.menu.list, P.article.list]),
    ]
    const buttons = await Menu.query().where('type', 'button').orderBy('id')
    const nodes = await Menu.query().whereNot('type', 'button').orderBy('id')
    const write = fc.oneof(
      fc.record({ kind: fc.constant('link'), role: fc.nat(1), menu: fc.nat(buttons.length - 1) }),
      fc.record({ kind: fc.constant('unlink'), role: fc.nat(1), menu: fc.nat(buttons.length - 1) }),
      fc.record({ kind: fc.constant('node'), menu: fc.nat(nodes.length - 1), on: fc.boolean() }),
      fc.record({ kind: fc.constant('role'), role: fc.nat(1), on: fc.boolean() }),
      fc.record({ kind: fc.constant('assign'), role: fc.nat(1), on: fc.boolean() })
    )
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 6 }), async (writes) => {
        for (const step of writes) {
          const role = roles[(step as any).role ?? 0]
          if (step.kind === 'link') {
            await db.rawQuery('DELETE FROM role_menus WHERE role_id = ? AND menu_id = ?', [
              role.id,
              buttons[step.menu].id,
            ])
            await db.rawQuery('INSERT INTO role_menus (role_id, menu_id) VALUES (?, ?)', [
              role.id,
              buttons[step.menu].id,
            ])
          } else if (step.kind === 'unlink') {
            await db.rawQuery('DELETE FROM role_menus WHERE role_id = ? AND menu_id = ?', [
              role.id,
              buttons[step.menu].id,
            ])
          } else if (step.kind === 'node') {
            await db.rawQuery('UPDATE menus SET status = ? WHERE id = ?', [
              step.on ? 'enabled' : 'disabled',
              nodes[step.menu].id,
            ])
          } else if (step.kind === 'role') {
            await db.rawQuery('UPDATE roles SET status = ? WHERE id = ?', [
              step.on ? 'enabled' : 'disabled',
              role.id,
            ])
          } else {
            await db.rawQuery('DELETE FROM user_roles WHERE user_id = ? AND role_id = ?', [
              user.id,
              role.id,
            ])
            if (step.on) {
              await db.rawQuery('INSERT INTO user_roles (user_id, role_id) VALUES (?, ?)', [
                user.id,
                role.id,
              ])
            }
          }
          const served = await me(client, user)
          const { snapshot } = await loadAccessSnapshot(user.id, user.deptId)
          assert.sameMembers(served.permissions, [...snapshot.permissions])
          assert.deepEqual(
            served.roles.map((r: any) => [r.id, r.status]),
            snapshot.roles.map((r) => [r.id, r.status])
          )
        }
      }),
      { numRuns: 25 }
    )
  })
})

test.group('Access snapshot cache: another process', (group) => {
  withRealCommits(group)

  test('a raw SQL change applies to the next request of a second app process', async ({
    assert,
  }) => {
    const { user, role } = await userWithPermissions([P.user.list])
    const { token } = await sessionToken(user.id, user.tokenVersion)
    const instance = await startAppProcess({})
    try {
      const permissions = async () => {
        const response = await fetch(`${instance.url}/api/auth/me`, {
          headers: { authorization: `Bearer ${token}` },
        })
        assert.equal(response.status, 200)
        return (await readJson(response)).data.permissions as string[]
      }
      assert.include(await permissions(), P.user.list)
      assert.include(await permissions(), P.user.list) // now served from its cache
      await db.rawQuery("UPDATE roles SET status = 'disabled' WHERE id = ?", [role.id])
      assert.deepEqual(await permissions(), [])
      await db.rawQuery("UPDATE roles SET status = 'enabled' WHERE id = ?", [role.id])
      assert.include(await permissions(), P.user.list)
    } finally {
      await instance.stop()
    }
  })
})
