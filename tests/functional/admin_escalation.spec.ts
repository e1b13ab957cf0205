import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import Role from '#models/role'
import Menu from '#models/menu'
import { PERMISSIONS } from '#auth/permissions'
import { isolate } from '#tests/helpers/database'
import { countQueries } from '#tests/helpers/auth'
import { assertForbidden } from '#tests/helpers/assertions'
import { RoleFactory, roleWithPermissions } from '#database/factories/role_factory'
import { UserFactory, userWithPermissions } from '#database/factories/user_factory'

/**
 * A non-super administrator may only grant what they hold themselves (app/services/admin/grants.ts),
 * tried from the attacker's side: holding the assign permissions but not, say,
 * `system:user:delete`, they must not be able to put that code into a role (their own or another)
 * nor hand a role carrying it to an account (a new one or an existing one).
 */
const P = PERMISSIONS
const seededAdmin = () => User.findByOrFail('account', 'admin')
const button = (code: string) => Menu.findByOrFail('permission', code)
const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b)
const menuIdsOf = async (roleId: number) =>
  sorted((await db.from('role_menus').where('role_id', roleId)).map((row) => Number(row.menu_id)))
const roleIdsOf = async (userId: number) =>
  sorted((await db.from('user_roles').where('user_id', userId)).map((row) => Number(row.role_id)))

/** The ids of a node and all of its ancestors. */
async function chainOf(menu: Menu) {
  const ids = [menu.id]
  for (let parentId = menu.parentId; parentId !== null;) {
    const parent = await Menu.findOrFail(parentId)
    ids.push(parent.id)
    parentId = parent.parentId
  }
  return sorted(ids)
}

const MENUS_REFUSED = 'You may only grant menus and permissions you hold yourself'
const TARGET_REFUSED = 'You may only change what holds no more than you do'
const ROLES_REFUSED = 'You may only grant roles whose menus and permissions you hold yourself'

test.group('Escalation: PUT roles/:id/menus', (group) => {
  isolate(group)

  /** Holds assign-menus and role:list (System, Roles and those two buttons), not user:delete. */
  const editor = () => userWithPermissions([P.role.assignMenus, P.role.list])

  test('cannot add system:user:delete to their own role', async ({ client, assert }) => {
    const { user, role } = await editor()
    const before = await menuIdsOf(role.id)
    const target = await button(P.user.delete)
    const response = await client
      .put(`/api/admin/roles/${role.id}/menus`)
      .json({ menuIds: [...before, target.id] })
      .loginAs(user)
    assertForbidden(assert, response, MENUS_REFUSED)
    // The button and the Users page (auto-added ancestor, not held either) are named.
    assert.include(response.body().errors[0].message, String(target.id))
    assert.include(response.body().errors[0].message, String(target.parentId))
    assert.deepEqual(await menuIdsOf(role.id), before)
    ;(await client.delete(`/api/admin/users/${user.id}`).loginAs(user)).assertStatus(403)
  })

  test('cannot add system:user:delete (or just its page) to another role', async ({
    client,
    assert,
  }) => {
    const { user } = await editor()
    const other = await RoleFactory.create()
    const before = await menuIdsOf(other.id)
    const target = await button(P.user.delete)
    const response = await client
      .put(`/api/admin/roles/${other.id}/menus`)
      .json({ menuIds: [target.id] })
      .loginAs(user)
    assertForbidden(assert, response, MENUS_REFUSED)
    assert.deepEqual(await menuIdsOf(other.id), before)

    const page = await client
      .put(`/api/admin/roles/${other.id}/menus`)
      .json({ menuIds: [target.parentId] })
      .loginAs(user)
    assertForbidden(assert, page, `menu id(s) ${target.parentId}`)
    assert.deepEqual(await menuIdsOf(other.id), before)
  })

  test('can add a node they hold: ancestors come along, the holder may use it next request', async ({
    client,
    assert,
  }) => {
    const { user } = await editor()
    const other = await RoleFactory.create()
    const holder = await UserFactory.create()
    await holder.related('roles').attach([other.id])
    ;(await client.get('/api/admin/roles').loginAs(holder)).assertStatus(403)

    const roleList = await button(P.role.list)
    const response = await client
      .put(`/api/admin/roles/${other.id}/menus`)
      .json({ menuIds: [roleList.id] })
      .loginAs(user)
    response.assertStatus(200)
    assert.deepEqual(sorted(response.body().data.menuIds), await chainOf(roleList))
    assert.deepEqual(await menuIdsOf(other.id), await chainOf(roleList))
    ;(await client.get('/api/admin/roles').loginAs(holder)).assertStatus(200)
  })

  test('cannot touch the menus of a role holding more than they do, not even to remove; a role within theirs can be edited and emptied', async ({
    client,
    assert,
  }) => {
    const { user } = await editor()
    const richer = await roleWithPermissions([P.user.delete, P.role.list])
    const roleList = await button(P.role.list)
    const before = await menuIdsOf(richer.id)
    for (const menuIds of [before, [roleList.id], []]) {
      const response = await client
        .put(`/api/admin/roles/${richer.id}/menus`)
        .json({ menuIds })
        .loginAs(user)
      assertForbidden(assert, response, TARGET_REFUSED)
      assert.deepEqual(await menuIdsOf(richer.id), before)
    }

    const within = await roleWithPermissions([P.role.list])
    const emptied = await client
      .put(`/api/admin/roles/${within.id}/menus`)
      .json({ menuIds: [] })
      .loginAs(user)
    emptied.assertStatus(200)
    assert.deepEqual(await menuIdsOf(within.id), [])
    const back = await client
      .put(`/api/admin/roles/${within.id}/menus`)
      .json({ menuIds: [roleList.id] })
      .loginAs(user)
    back.assertStatus(200)
    assert.deepEqual(await menuIdsOf(within.id), await chainOf(roleList))
  })

  test('adding a held ancestor cannot make a kept, unheld node start to count', async ({
    client,
    assert,
  }) => {
    // Holds the Users page (through user:list) but not user:delete.
    const { user } = await userWithPermissions([P.role.assignMenus, P.user.list])
    const userDelete = await button(P.user.delete)
    const usersPage = await Menu.findOrFail(userDelete.parentId!)
    // Hand-edited data: the button is stored without its page, so it grants nothing yet.
    const other = await RoleFactory.create()
    await other.related('menus').attach([usersPage.parentId!, userDelete.id])
    const before = await menuIdsOf(other.id)

    const response = await client
      .put(`/api/admin/roles/${other.id}/menus`)
      .json({ menuIds: [userDelete.id] })
      .loginAs(user)
    assertForbidden(assert, response, `menu id(s) ${userDelete.id}`)
    assert.deepEqual(await menuIdsOf(other.id), before)
  })

  test('a disabled node is not held: it cannot be added even when the caller’s role has it', async ({
    client,
    assert,
  }) => {
    const { user } = await userWithPermissions([P.role.assignMenus, P.article.publish])
    const publish = await button(P.article.publish)
    await Menu.query().where('id', publish.id).update({ status: 'disabled' })
    const other = await RoleFactory.create()
    const response = await client
      .put(`/api/admin/roles/${other.id}/menus`)
      .json({ menuIds: [publish.id] })
      .loginAs(user)
    assertForbidden(assert, response, `menu id(s) ${publish.id}`)
    assert.deepEqual(await menuIdsOf(other.id), [])
  })

  test('a super administrator may add anything', async ({ client, assert }) => {
    const { role } = await editor()
    const userDelete = await button(P.user.delete)
    const response = await client
      .put(`/api/admin/roles/${role.id}/menus`)
      .json({ menuIds: [...(await menuIdsOf(role.id)), userDelete.id] })
      .loginAs(await seededAdmin())
    response.assertStatus(200)
    assert.includeMembers(await menuIdsOf(role.id), await chainOf(userDelete))
  })

  test('queries: none added for the check; writes only the difference; not one per menu', async ({
    client,
    assert,
  }) => {
    const { user } = await userWithPermissions([
      P.role.assignMenus,
      P.role.list,
      P.role.create,
      P.role.update,
      P.role.delete,
    ])
    const admin = await seededAdmin()
    const other = await RoleFactory.create()
    const one = [(await button(P.role.list)).id]
    const five = await Promise.all(
      [P.role.list, P.role.create, P.role.update, P.role.delete, P.role.assignMenus].map(
        async (code) => (await button(code)).id
      )
    )
    const put = (menuIds: number[], as: User) =>
      countQueries(() =>
        client.put(`/api/admin/roles/${other.id}/menus`).json({ menuIds }).loginAs(as)
      )

    const grantOne = await put(one, user)
    grantOne.result.assertStatus(200)
    await db.from('role_menus').where('role_id', other.id).delete()
    const grantFive = await put(five, user)
    grantFive.result.assertStatus(200)
    assert.equal(grantFive.queries.length, grantOne.queries.length, grantFive.queries.join('\n'))
    await db.from('role_menus').where('role_id', other.id).delete()
    const bySuper = await put(five, admin)
    bySuper.result.assertStatus(200)
    assert.equal(grantFive.queries.length, bySuper.queries.length)

    // Re-saving the same set grants nothing and writes nothing.
    const resave = await put(five, user)
    resave.result.assertStatus(200)
    assert.isAtMost(resave.queries.length, grantFive.queries.length - 1)
    assert.notMatch(resave.queries.join('\n'), /(insert into|delete from) ["`]?role_menus/i)
  })
})

test.group('Escalation: POST roles with menuIds', (group) => {
  isolate(group)

  test('cannot create a role carrying a node they do not hold; nothing is written', async ({
    client,
    assert,
  }) => {
    const { user } = await userWithPermissions([P.role.create, P.role.list])
    const userDelete = await button(P.user.delete)
    const roleList = await button(P.role.list)
    const roles = await db.from('roles').count('* as total')
    const response = await client
      .post('/api/admin/roles')
      .json({ code: 'deleters', name: 'Deleters', menuIds: [roleList.id, userDelete.id] })
      .loginAs(user)
    assertForbidden(assert, response, `${userDelete.id}`)
    assert.isNull(await Role.findBy('code', 'deleters'))
    assert.deepEqual(await db.from('roles').count('* as total'), roles)

    const held = await client
      .post('/api/admin/roles')
      .json({ code: 'listers', name: 'Listers', menuIds: [roleList.id] })
      .loginAs(user)
    held.assertStatus(201)
    const created = await Role.findByOrFail('code', 'listers')
    assert.deepEqual(await menuIdsOf(created.id), await chainOf(roleList))
  })

  test('a super administrator may create a role with any node', async ({ client, assert }) => {
    const userDelete = await button(P.user.delete)
    const response = await client
      .post('/api/admin/roles')
      .json({ code: 'deleters', name: 'Deleters', menuIds: [userDelete.id] })
      .loginAs(await seededAdmin())
    response.assertStatus(201)
    const created = await Role.findByOrFail('code', 'deleters')
    assert.deepEqual(await menuIdsOf(created.id), await chainOf(userDelete))
  })
})

test.group('Escalation: roles given to accounts', (group) => {
  isolate(group)

  /** Holds user:create, user:assign-roles and user:list (so the Users page), not user:delete. */
  const manager = () => userWithPermissions([P.user.create, P.user.assignRoles, P.user.list])
  const NEW_ACCOUNT = { account: 'puppet', password: 'Marionette-strings-42' }

  test('POST users: cannot create an account with a role carrying a permission they lack', async ({
    client,
    assert,
  }) => {
    const { user } = await manager()
    const weak = await roleWithPermissions([P.user.list])
    const strong = await roleWithPermissions([P.user.delete])
    const response = await client
      .post('/api/admin/users')
      .json({ ...NEW_ACCOUNT, roleIds: [weak.id, strong.id] })
      .loginAs(user)
    assertForbidden(assert, response, `${ROLES_REFUSED}; refused: role id(s) ${strong.id}`)
    assert.isNull(await User.findBy('account', NEW_ACCOUNT.account))
    assert.lengthOf(await db.from('user_roles').whereIn('role_id', [weak.id, strong.id]), 0)
  })

  test('PUT users/:id/roles: cannot assign a role carrying a permission they lack', async ({
    client,
    assert,
  }) => {
    const { user } = await manager()
    const weak = await roleWithPermissions([P.user.list])
    const strong = await roleWithPermissions([P.user.list, P.user.delete])
    const target = await UserFactory.create()
    await target.related('roles').attach([weak.id])
    const response = await client
      .put(`/api/admin/users/${target.id}/roles`)
      .json({ roleIds: [weak.id, strong.id] })
      .loginAs(user)
    assertForbidden(assert, response, `refused: role id(s) ${strong.id}`)
    assert.deepEqual(await roleIdsOf(target.id), [weak.id])
    ;(await client.delete(`/api/admin/users/${user.id}`).loginAs(target)).assertStatus(403)
  })

  test('a disabled role is judged by what it would grant once re-enabled', async ({
    client,
    assert,
  }) => {
    const { user } = await manager()
    const dormant = await roleWithPermissions([P.user.delete], { status: 'disabled' })
    const target = await UserFactory.create()
    const response = await client
      .put(`/api/admin/users/${target.id}/roles`)
      .json({ roleIds: [dormant.id] })
      .loginAs(user)
    assertForbidden(assert, response, `refused: role id(s) ${dormant.id}`)
    assert.deepEqual(await roleIdsOf(target.id), [])
  })

  test('can create an account with, or assign, a role that is a subset of theirs', async ({
    client,
    assert,
  }) => {
    const { user, role: own } = await manager()
    const weak = await roleWithPermissions([P.user.list])
    const empty = await RoleFactory.create()
    const created = await client
      .post('/api/admin/users')
      .json({ ...NEW_ACCOUNT, roleIds: [weak.id, empty.id] })
      .loginAs(user)
    created.assertStatus(201)
    const puppet = await User.findByOrFail('account', NEW_ACCOUNT.account)
    assert.deepEqual(await roleIdsOf(puppet.id), sorted([weak.id, empty.id]))
    // Its first sign-in changes the password the creator chose (password_lifecycle.spec.ts).
    await puppet.merge({ mustChangePassword: false }).save()
    ;(await client.get('/api/admin/users').loginAs(puppet)).assertStatus(200)

    // Their own role is a subset of what they hold, trivially.
    const target = await UserFactory.create()
    const assigned = await client
      .put(`/api/admin/users/${target.id}/roles`)
      .json({ roleIds: [own.id, weak.id] })
      .loginAs(user)
    assigned.assertStatus(200)
    assert.deepEqual(await roleIdsOf(target.id), sorted([own.id, weak.id]))
  })

  test('cannot strip or re-role an account holding more than they do; can strip one holding no more', async ({
    client,
    assert,
  }) => {
    const { user } = await manager()
    const weak = await roleWithPermissions([P.user.list])
    const strong = await roleWithPermissions([P.user.delete])
    const richer = await UserFactory.create()
    await richer.related('roles').attach([strong.id])
    for (const roleIds of [[strong.id, weak.id], [weak.id], []]) {
      const response = await client
        .put(`/api/admin/users/${richer.id}/roles`)
        .json({ roleIds })
        .loginAs(user)
      assertForbidden(assert, response, TARGET_REFUSED)
      assert.deepEqual(await roleIdsOf(richer.id), [strong.id])
    }

    const within = await UserFactory.create()
    await within.related('roles').attach([weak.id])
    const removed = await client
      .put(`/api/admin/users/${within.id}/roles`)
      .json({ roleIds: [] })
      .loginAs(user)
    removed.assertStatus(200)
    assert.deepEqual(await roleIdsOf(within.id), [])
  })

  test('a super administrator may create and assign any role', async ({ client, assert }) => {
    const admin = await seededAdmin()
    const strong = await roleWithPermissions([P.user.delete])
    const created = await client
      .post('/api/admin/users')
      .json({ ...NEW_ACCOUNT, roleIds: [strong.id] })
      .loginAs(admin)
    created.assertStatus(201)
    const puppet = await User.findByOrFail('account', NEW_ACCOUNT.account)
    assert.deepEqual(await roleIdsOf(puppet.id), [strong.id])

    const target = await UserFactory.create()
    const assigned = await client
      .put(`/api/admin/users/${target.id}/roles`)
      .json({ roleIds: [strong.id] })
      .loginAs(admin)
    assigned.assertStatus(200)
    assert.deepEqual(await roleIdsOf(target.id), [strong.id])
  })

  test('queries: the rule reads the same facts for a super admin and for anyone else, whatever the number of roles', async ({
    client,
    assert,
  }) => {
    const { user } = await manager()
    const admin = await seededAdmin()
    const weak = await Promise.all([1, 2, 3].map(() => roleWithPermissions([P.user.list])))
    const target = await UserFactory.create()
    const put = async (roleIds: number[], as: User) => {
      await db.from('user_roles').where('user_id', target.id).delete()
      return countQueries(() =>
        client.put(`/api/admin/users/${target.id}/roles`).json({ roleIds }).loginAs(as)
      )
    }
    const oneBySuper = await put([weak[0].id], admin)
    const one = await put([weak[0].id], user)
    const three = await put(
      weak.map((role) => role.id),
      user
    )
    for (const response of [oneBySuper, one, three]) response.result.assertStatus(200)
    assert.equal(one.queries.length, oneBySuper.queries.length, one.queries.join('\n'))
    assert.equal(three.queries.length, one.queries.length)
  })
})

test.group('Escalation: POST users/:id/password-reset', (group) => {
  isolate(group)

  test('cannot take over an account holding more, can reset one holding no more', async ({
    client,
    assert,
  }) => {
    // The attacker holds reset-password and user:list only.
    const { user: attacker } = await userWithPermissions([P.user.resetPassword, P.user.list])
    // A stronger (non-super) administrator: holds user:delete too.
    const { user: stronger } = await userWithPermissions([P.user.list, P.user.delete])
    const weaker = await UserFactory.create()

    const before = await User.findOrFail(stronger.id)
    const refused = await client
      .post(`/api/admin/users/${stronger.id}/password-reset`)
      .loginAs(attacker)
      .json({ password: 'Taken-Over-Passw0rd-1' })
    assertForbidden(assert, refused, 'holds no more than you do')
    const after = await User.findOrFail(stronger.id)
    assert.equal(after.password, before.password)
    assert.equal(after.tokenVersion, before.tokenVersion)

    const allowed = await client
      .post(`/api/admin/users/${weaker.id}/password-reset`)
      .loginAs(attacker)
      .json({ password: 'Weaker-Reset-Passw0rd-1' })
    allowed.assertStatus(200)
    assert.equal((await User.findOrFail(weaker.id)).tokenVersion, weaker.tokenVersion + 1)

    // A super admin may reset the stronger one.
    const superReset = await client
      .post(`/api/admin/users/${stronger.id}/password-reset`)
      .loginAs(await seededAdmin())
      .json({ password: 'Super-Reset-Passw0rd-1' })
    superReset.assertStatus(200)
  })
})
