import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import Menu from '#models/menu'
import Role from '#models/role'
import Article from '#models/article'
import { PERMISSIONS } from '#auth/permissions'
import { isolate } from '#tests/helpers/database'
import { assertForbidden } from '#tests/helpers/assertions'
import { RoleFactory, roleWithPermissions } from '#database/factories/role_factory'
import { UserFactory, userWithPermissions } from '#database/factories/user_factory'
import { MenuFactory } from '#database/factories/menu_factory'
import { ArticleFactory } from '#database/factories/article_factory'

/**
 * The grant rule (app/policies/grant_rule.ts) from the attacker's side: a non-super holder of
 * exactly the code involved tries to get (or hand out, or take away) more than they hold. Each
 * refusal is a 403 that leaves the tables, every affected account's /me and, for takeovers, the
 * victim's password digest exactly as they were.
 */
const P = PERMISSIONS
const seededAdmin = () => User.findByOrFail('account', 'admin')
const button = (code: string) => Menu.findByOrFail('permission', code)

const TARGET = 'You may only change what holds no more than you do'
const CODE = 'You may only set a permission code you hold yourself'
const GRANT = 'You may only grant menus and permissions you hold yourself'
const SUPER = 'Only a super administrator'
const PUBLISH = 'requires the publish permission'

/** Whole tables, ordered, as plain rows (compared before and after an attack). */
const menusTable = () =>
  db.from('menus').select('id', 'parent_id', 'type', 'permission', 'status').orderBy('id')
const roleMenusTable = () =>
  db.from('role_menus').select('role_id', 'menu_id').orderBy('role_id').orderBy('menu_id')
const rolesTable = () => db.from('roles').select('id', 'code', 'name', 'status').orderBy('id')
const usersTable = () =>
  db.from('users').select('id', 'status', 'password', 'token_version').orderBy('id')
const userRolesTable = () =>
  db.from('user_roles').select('user_id', 'role_id').orderBy('user_id').orderBy('role_id')
const rbacTables = async () => ({
  menus: await menusTable(),
  roleMenus: await roleMenusTable(),
  roles: await rolesTable(),
  users: await usersTable(),
  userRoles: await userRolesTable(),
})

/** The permission codes /me reports for each account. */
async function meOf(client: ApiClient, users: User[]) {
  const result: string[][] = []
  for (const user of users) {
    const response = await client.get('/api/auth/me').loginAs(user)
    response.assertStatus(200)
    result.push(response.body().data.permissions)
  }
  return result
}

test.group('Grant rule: menus', (group) => {
  isolate(group)

  test('the two-step re-code of system:user:reset-password is refused at both steps', async ({
    client,
    assert,
  }) => {
    const { user } = await userWithPermissions([P.menu.update])
    const { user: holder } = await userWithPermissions([P.user.resetPassword])
    const reset = await button(P.user.resetPassword)
    const own = await button(P.menu.update)
    const tables = await rbacTables()
    const me = await meOf(client, [user, holder])

    const away = await client
      .put(`/api/admin/menus/${reset.id}`)
      .json({ permission: 'system:user:reset-pass' })
      .loginAs(user)
    assertForbidden(assert, away, TARGET)
    const taken = await client
      .put(`/api/admin/menus/${own.id}`)
      .json({ permission: P.user.resetPassword })
      .loginAs(user)
    assertForbidden(assert, taken, CODE)

    assert.deepEqual(await rbacTables(), tables)
    assert.deepEqual(await meOf(client, [user, holder]), me)
    assert.deepEqual(me[0], [P.menu.update])
  })

  test('a button or a directory a super admin disabled cannot be re-enabled', async ({
    client,
    assert,
  }) => {
    const { user } = await userWithPermissions([P.menu.update, P.article.publish, P.user.list])
    const publish = await button(P.article.publish)
    const content = (await Menu.findOrFail(publish.parentId!)).parentId!
    const admin = await seededAdmin()
    for (const id of [publish.id, content]) {
      const off = await client
        .put(`/api/admin/menus/${id}`)
        .json({ status: 'disabled' })
        .loginAs(admin)
      off.assertStatus(200)
    }
    const tables = await rbacTables()
    const me = await meOf(client, [user])
    assert.deepEqual(me, [[P.menu.update, P.user.list].sort()])

    for (const id of [publish.id, content]) {
      const response = await client
        .put(`/api/admin/menus/${id}`)
        .json({ status: 'enabled' })
        .loginAs(user)
      assertForbidden(assert, response, TARGET)
    }
    assert.deepEqual(await rbacTables(), tables)
    assert.equal((await Menu.findOrFail(publish.id)).status, 'disabled')
    assert.equal((await Menu.findOrFail(content)).status, 'disabled')
    assert.deepEqual(await meOf(client, [user]), me)
  })

  test('a node it does not hold (a button, or the whole System directory) cannot be disabled', async ({
    client,
    assert,
  }) => {
    const { user } = await userWithPermissions([P.menu.update])
    const { user: holder } = await userWithPermissions([P.user.delete, P.role.list])
    const userDelete = await button(P.user.delete)
    const usersPage = await Menu.findOrFail(userDelete.parentId!)
    const tables = await rbacTables()
    const me = await meOf(client, [user, holder])

    for (const id of [userDelete.id, usersPage.parentId!]) {
      const response = await client
        .put(`/api/admin/menus/${id}`)
        .json({ status: 'disabled' })
        .loginAs(user)
      assertForbidden(assert, response, TARGET)
    }
    assert.deepEqual(await rbacTables(), tables)
    assert.deepEqual(await meOf(client, [user, holder]), me)
  })

  test('moves: not under an unheld parent; a super admin move never writes role_menus (409)', async ({
    client,
    assert,
  }) => {
    const { user, role } = await userWithPermissions([P.menu.update])
    const { user: holder } = await userWithPermissions([P.article.publish])
    // A root directory the attacker holds (granted to their role, enabled, at the root).
    const held = await MenuFactory.create()
    await role.related('menus').attach([held.id])
    const content = await Menu.findOrFail(
      (await Menu.findOrFail((await button(P.article.publish)).parentId!)).parentId!
    )
    const tables = await rbacTables()
    const me = await meOf(client, [user, holder])

    const refused = await client
      .put(`/api/admin/menus/${held.id}`)
      .json({ parentId: content.id })
      .loginAs(user)
    assertForbidden(assert, refused, GRANT)
    assert.deepEqual(await rbacTables(), tables)

    // The attacker's role holds the node but not Content: the move would need a grant.
    const conflict = await client
      .put(`/api/admin/menus/${held.id}`)
      .json({ parentId: content.id })
      .loginAs(await seededAdmin())
    conflict.assertStatus(409)
    assert.include(conflict.body().errors[0].message, `Role id(s) ${role.id}`)
    assert.deepEqual(await rbacTables(), tables)
    assert.deepEqual(await meOf(client, [user, holder]), me)
  })
})

test.group('Grant rule: roles', (group) => {
  isolate(group)

  test('re-enabling a disabled role (its own, or an accomplice’s) that carries more is refused', async ({
    client,
    assert,
  }) => {
    const { user } = await userWithPermissions([P.role.update, P.role.list])
    const seven = await roleWithPermissions(
      [
        P.role.update,
        P.role.list,
        P.user.list,
        P.user.delete,
        P.user.update,
        P.menu.list,
        P.article.list,
      ],
      { status: 'disabled' }
    )
    await user.related('roles').attach([seven.id])
    const accomplice = await UserFactory.create()
    const theirs = await roleWithPermissions([P.role.list, P.user.delete], { status: 'disabled' })
    await accomplice.related('roles').attach([theirs.id])
    const tables = await rbacTables()
    const me = await meOf(client, [user, accomplice])
    assert.lengthOf(me[0], 2)

    for (const id of [seven.id, theirs.id]) {
      const response = await client
        .put(`/api/admin/roles/${id}`)
        .json({ status: 'enabled' })
        .loginAs(user)
      assertForbidden(assert, response, TARGET)
    }
    assert.deepEqual(await rbacTables(), tables)
    assert.deepEqual(await meOf(client, [user, accomplice]), me)
  })

  test('a role holding more cannot be disabled, renamed, deleted or emptied', async ({
    client,
    assert,
  }) => {
    const { user } = await userWithPermissions([P.role.update, P.role.delete, P.role.assignMenus])
    const { user: victim, role: richer } = await userWithPermissions([P.role.update, P.user.delete])
    const tables = await rbacTables()
    const me = await meOf(client, [user, victim])

    const attacks = [
      client.put(`/api/admin/roles/${richer.id}`).json({ status: 'disabled' }),
      client.put(`/api/admin/roles/${richer.id}`).json({ name: 'Renamed' }),
      client.delete(`/api/admin/roles/${richer.id}`),
      client.put(`/api/admin/roles/${richer.id}/menus`).json({ menuIds: [] }),
    ]
    for (const request of attacks) assertForbidden(assert, await request.loginAs(user), TARGET)
    assert.deepEqual(await rbacTables(), tables)
    assert.deepEqual(await meOf(client, [user, victim]), me)
  })
})

test.group('Grant rule: users', (group) => {
  isolate(group)

  test('an account holding more cannot be disabled, re-enabled, stripped, deleted or taken over', async ({
    client,
    assert,
  }) => {
    const { user } = await userWithPermissions([
      P.user.update,
      P.user.delete,
      P.user.assignRoles,
      P.user.resetPassword,
    ])
    const { user: victim } = await userWithPermissions([P.user.update, P.role.delete])
    // An account a super admin disabled, holding more than the attacker.
    const { user: parked } = await userWithPermissions([P.user.update, P.menu.delete], {
      status: 'disabled',
    })
    const tables = await rbacTables()
    const me = await meOf(client, [user, victim])
    const digest = (await User.findOrFail(victim.id)).password

    const attacks = [
      client.put(`/api/admin/users/${victim.id}`).json({ status: 'disabled' }),
      client.put(`/api/admin/users/${parked.id}`).json({ status: 'enabled' }),
      client.put(`/api/admin/users/${victim.id}/roles`).json({ roleIds: [] }),
      client.delete(`/api/admin/users/${victim.id}`),
      client
        .post(`/api/admin/users/${victim.id}/password-reset`)
        .json({ password: 'Taken-Over-Passw0rd-9' }),
    ]
    for (const request of attacks) assertForbidden(assert, await request.loginAs(user), TARGET)
    assert.deepEqual(await rbacTables(), tables)
    assert.deepEqual(await meOf(client, [user, victim]), me)
    assert.equal((await User.findOrFail(victim.id)).password, digest)
  })

  test('a super admin account cannot be touched by a non-super holder of every user code', async ({
    client,
    assert,
  }) => {
    const { user } = await userWithPermissions(Object.values(P.user))
    const admin = await seededAdmin()
    const tables = await rbacTables()
    const attacks = [
      client.put(`/api/admin/users/${admin.id}`).json({ status: 'disabled' }),
      client.put(`/api/admin/users/${admin.id}/roles`).json({ roleIds: [] }),
      client.delete(`/api/admin/users/${admin.id}`),
      client
        .post(`/api/admin/users/${admin.id}/password-reset`)
        .json({ password: 'Taken-Over-Passw0rd-9' }),
    ]
    for (const request of attacks) assertForbidden(assert, await request.loginAs(user), SUPER)
    assert.deepEqual(await rbacTables(), tables)
  })
})

test.group('Grant rule: articles', (group) => {
  isolate(group)

  test('without publish: a published or scheduled article is neither edited nor deleted; a draft is', async ({
    client,
    assert,
  }) => {
    const { user: editor } = await userWithPermissions([P.article.update])
    const { user: remover } = await userWithPermissions([P.article.delete])
    const published = await ArticleFactory.create()
    const scheduled = await ArticleFactory.apply('scheduled').create()
    const draft = await ArticleFactory.apply('draft').create()

    for (const live of [published, scheduled]) {
      const edit = await client
        .put(`/api/admin/articles/${live.id}`)
        .json({ title: 'Defaced' })
        .loginAs(editor)
      assertForbidden(assert, edit, PUBLISH)
      assert.equal((await Article.findOrFail(live.id)).title, live.title)
      const remove = await client.delete(`/api/admin/articles/${live.id}`).loginAs(remover)
      assertForbidden(assert, remove, PUBLISH)
      assert.isNotNull(await Article.find(live.id))
    }

    const edit = await client
      .put(`/api/admin/articles/${draft.id}`)
      .json({ title: 'Fixed typo' })
      .loginAs(editor)
    edit.assertStatus(200)
    assert.equal((await Article.findOrFail(draft.id)).title, 'Fixed typo')
    ;(await client.delete(`/api/admin/articles/${draft.id}`).loginAs(remover)).assertStatus(204)
    assert.isNull(await Article.find(draft.id))
  })
})

test.group('Grant rule: the super administrator', (group) => {
  isolate(group)

  test('does what the attackers could not', async ({ client, assert }) => {
    const admin = await seededAdmin()
    const reset = await button(P.user.resetPassword)

    const recode = await client
      .put(`/api/admin/menus/${reset.id}`)
      .json({ permission: 'system:user:export' })
      .loginAs(admin)
    recode.assertStatus(200)
    assert.equal((await Menu.findOrFail(reset.id)).permission, 'system:user:export')

    const publish = await button(P.article.publish)
    await Menu.query().where('id', publish.id).update({ status: 'disabled' })
    const enable = await client
      .put(`/api/admin/menus/${publish.id}`)
      .json({ status: 'enabled' })
      .loginAs(admin)
    enable.assertStatus(200)
    assert.equal((await Menu.findOrFail(publish.id)).status, 'enabled')

    const disabledRole = await RoleFactory.apply('disabled').create()
    const role = await client
      .put(`/api/admin/roles/${disabledRole.id}`)
      .json({ status: 'enabled' })
      .loginAs(admin)
    role.assertStatus(200)
    assert.equal((await Role.findOrFail(disabledRole.id)).status, 'enabled')

    const { user: richer } = await userWithPermissions(Object.values(P.user))
    const disable = await client
      .put(`/api/admin/users/${richer.id}`)
      .json({ status: 'disabled' })
      .loginAs(admin)
    disable.assertStatus(200)
    assert.equal((await User.findOrFail(richer.id)).status, 'disabled')

    const article = await ArticleFactory.create()
    ;(await client.delete(`/api/admin/articles/${article.id}`).loginAs(admin)).assertStatus(204)
    assert.isNull(await Article.find(article.id))
  })
})
