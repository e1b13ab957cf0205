import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import type User from '#models/user'
import Menu from '#models/menu'
import Dept from '#models/dept'
import { SUPER_ADMIN_ROLE } from '#models/role'
import { ALL_PERMISSION_CODES, PERMISSIONS } from '#auth/permissions'
import { ADMIN_PREFIX } from '#start/routes/admin'
import { RoleFactory, roleWithPermissions } from '#database/factories/role_factory'
import { UserFactory } from '#database/factories/user_factory'
import { isolate } from '#tests/helpers/database'
import { permissionsOf, seededAdmin } from '#tests/helpers/rbac'
import { apiTokenFor } from '#tests/helpers/api_tokens'
import { assertForbidden, assertValidationError } from '#tests/helpers/assertions'
import { parseCsv } from '#tests/helpers/csv'

/**
 * Access review (docs/admin-modules.md, "Access review"): its answers are the accounts' own
 * /me answers with the "why" added, the why-paths exist in the data, the data scope applies,
 * the audit log shows grants and revocations, and the CSV matrix is the same answer.
 */
const { user: U, role: R, dept: D, article: A, param: P, dict: DI, access: AC } = PERMISSIONS
const ACCESS = `${ADMIN_PREFIX}/access`

/** The situations of the brief: overlapping roles, a disabled role, a disabled directory. */
async function accounts() {
  const roleA = await roleWithPermissions([U.list, U.create, R.list])
  const roleB = await roleWithPermissions([U.list, D.list])
  const disabled = await roleWithPermissions([A.list], { status: 'disabled' })
  // A disabled directory above a button carrying P.list: the button grants nothing.
  const dir = await Menu.create({
    parentId: null,
    type: 'directory',
    name: 'Closed',
    path: '/closed',
    component: null,
    icon: null,
    permission: null,
    sort: 9,
    visible: true,
    status: 'disabled',
  })
  const hidden = await Menu.create({
    parentId: dir.id,
    type: 'button',
    name: 'Parameters elsewhere',
    path: null,
    component: null,
    icon: null,
    permission: P.list,
    sort: 1,
    visible: true,
    status: 'enabled',
  })
  const roleC = await roleWithPermissions([DI.list])
  await roleC.related('menus').attach([dir.id, hidden.id])

  const make = async (roleIds: number[]) => {
    const user = await UserFactory.create()
    await user.related('roles').attach(roleIds)
    return user
  }
  return {
    roles: { roleA, roleB, disabled, roleC },
    overlapping: await make([roleA.id, roleB.id]),
    withDisabled: await make([roleA.id, disabled.id]),
    belowClosed: await make([roleC.id]),
    admin: await seededAdmin(),
  }
}

async function reviewOf(client: ApiClient, viewer: User, id: number) {
  const response = await client.get(`${ACCESS}/users/${id}`).loginAs(viewer)
  response.assertStatus(200)
  return response.body().data
}

test.group('Access review: by user', (group) => {
  isolate(group)

  test('the codes are what /me says, each with a why-path that exists', async ({
    client,
    assert,
  }) => {
    const { overlapping, withDisabled, belowClosed, admin, roles } = await accounts()
    const users = [overlapping, withDisabled, belowClosed, admin]
    const own = await permissionsOf(client, users)
    const menus = new Map((await Menu.all()).map((menu) => [menu.id, menu]))
    const held = new Set(
      (await db.from('role_menus').select('role_id', 'menu_id')).map(
        (row) => `${row.role_id}:${row.menu_id}`
      )
    )
    for (const [i, user] of users.entries()) {
      const review = await reviewOf(client, admin, user.id)
      const codes = review.codes.map((entry: { code: string }) => entry.code)
      assert.deepEqual(codes, [...own[i]].sort(), user.account)
      for (const { code, grants } of review.codes) {
        assert.isAbove(grants.length, 0, code)
        for (const { role, path } of grants) {
          if (role.code === SUPER_ADMIN_ROLE && path.length === 0) continue
          // Root first, each node the parent of the next, all enabled; the last carries the code.
          assert.isNull(menus.get(path[0].id)!.parentId)
          for (const [j, node] of path.entries()) {
            const menu = menus.get(node.id)!
            assert.equal(menu.name, node.name)
            assert.equal(menu.status, 'enabled')
            if (j > 0) assert.equal(menu.parentId, path[j - 1].id)
          }
          assert.equal(menus.get(path.at(-1).id)!.permission, code)
          if (role.code !== SUPER_ADMIN_ROLE)
            assert.isTrue(held.has(`${role.id}:${path.at(-1).id}`))
        }
      }
    }

    const review = async (user: User) => reviewOf(client, admin, user.id)
    const why = (data: any, code: string) =>
      data.codes
        .find((entry: { code: string }) => entry.code === code)
        ?.grants.map((grant: { role: { id: number } }) => grant.role.id)
        .sort()
    // Both roles grant the overlapping code; a disabled role and a closed directory grant nothing.
    assert.deepEqual(
      why(await review(overlapping), U.list),
      [roles.roleA.id, roles.roleB.id].sort()
    )
    const second = await review(withDisabled)
    assert.isUndefined(why(second, A.list))
    assert.deepEqual(second.roles.map((role: { status: string }) => role.status).sort(), [
      'disabled',
      'enabled',
    ])
    assert.isUndefined(why(await review(belowClosed), P.list))
    const top = await review(admin)
    assert.isTrue(top.isSuperAdmin)
    assert.isTrue(top.scope.all)
    assert.sameMembers(
      top.codes.map((entry: { code: string }) => entry.code),
      [...ALL_PERMISSION_CODES]
    )
  })

  test('live tokens with their effective codes: those the owner still holds', async ({
    client,
    assert,
  }) => {
    const { overlapping, admin } = await accounts()
    const { row } = await apiTokenFor(overlapping, [U.list, A.list])
    // Not live: expired, and one from before a password change.
    await apiTokenFor(overlapping, [U.list], { expiresAt: Date.now() - 1000 })
    await apiTokenFor(overlapping, [U.list], { tokenVersion: overlapping.tokenVersion + 1 })
    const review = await reviewOf(client, admin, overlapping.id)
    assert.deepEqual(
      review.tokens.map((token: any) => [token.id, token.permissions, token.effective]),
      [[row.id, [U.list, A.list], [U.list]]]
    )

    const holders = async (code: string) => {
      const response = await client
        .get(`${ACCESS}/codes/${code}`)
        .qs({ pageSize: 100 })
        .loginAs(admin)
      response.assertStatus(200)
      return response.body()
    }
    const listing = await holders(U.list)
    const mine = listing.data.find((h: any) => h.id === overlapping.id)
    assert.deepEqual(
      mine.tokens.map((token: { id: number }) => token.id),
      [row.id]
    )
    assert.lengthOf(mine.roles, 2)
    assert.isTrue(listing.data.some((h: any) => h.id === admin.id))
    assert.equal(listing.meta.total, listing.data.length)
    const article = await holders(A.list)
    assert.isFalse(article.data.some((h: any) => h.id === overlapping.id))

    const unknown = await client.get(`${ACCESS}/codes/system:nothing:list`).loginAs(admin)
    unknown.assertStatus(404)
  })
})

test.group('Access review: scope and permission', (group) => {
  isolate(group)

  test('a department-scoped reviewer sees its department only', async ({ client, assert }) => {
    const root = await Dept.root()
    const dept = (name: string) =>
      Dept.create({ name, parentId: root.id, sort: 0, status: 'enabled' })
    const [a, b] = [await dept('A'), await dept('B')]
    const reviewerRole = await roleWithPermissions([AC.list], { dataScope: 'dept' })
    const reviewer = await UserFactory.merge({ deptId: a.id }).create()
    await reviewer.related('roles').attach([reviewerRole.id])
    const granted = await roleWithPermissions([U.list])
    const inside = await UserFactory.merge({ deptId: a.id }).create()
    const outside = await UserFactory.merge({ deptId: b.id }).create()
    await inside.related('roles').attach([granted.id])
    await outside.related('roles').attach([granted.id])

    ;(await client.get(`${ACCESS}/users/${inside.id}`).loginAs(reviewer)).assertStatus(200)
    ;(await client.get(`${ACCESS}/users/${outside.id}`).loginAs(reviewer)).assertStatus(404)
    const holders = await client.get(`${ACCESS}/codes/${U.list}`).loginAs(reviewer)
    assert.deepEqual(
      holders.body().data.map((h: any) => h.id),
      [inside.id]
    )
    const csv = await client.get(`${ACCESS}/export`).qs({ format: 'csv' }).loginAs(reviewer)
    csv.assertStatus(200)
    assert.sameMembers(
      parseCsv(csv.text())
        .slice(1)
        .map((row) => Number(row[0])),
      [reviewer.id, inside.id]
    )

    // Role changes of both accounts: the reviewer's changes list shows the one in its scope.
    const admin = await seededAdmin()
    const extra = await RoleFactory.create()
    for (const user of [inside, outside]) {
      const put = await client
        .put(`${ADMIN_PREFIX}/users/${user.id}/roles`)
        .json({ roleIds: [granted.id, extra.id] })
        .loginAs(admin)
      put.assertStatus(200)
    }
    const changes = await client.get(`${ACCESS}/changes`).qs(period()).loginAs(reviewer)
    changes.assertStatus(200)
    const users = changes
      .body()
      .data.filter((entry: any) => entry.subject.type === 'user')
      .map((entry: any) => entry.subject.id)
    assert.deepEqual(users, [inside.id])
  })

  test('403 without the code; 404 and 422 on bad input', async ({ client, assert }) => {
    const { roles, overlapping, admin } = await accounts()
    const noAccess = await UserFactory.create()
    await noAccess.related('roles').attach([roles.roleA.id])
    for (const path of [
      `users/${overlapping.id}`,
      `codes/${U.list}`,
      `changes?from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z`,
      'export?format=csv',
    ]) {
      assertForbidden(assert, await client.get(`${ACCESS}/${path}`).loginAs(noAccess))
    }
    ;(await client.get(`${ACCESS}/users/999999999`).loginAs(admin)).assertStatus(404)
    assertValidationError(
      assert,
      await client.get(`${ACCESS}/changes`).qs({ from: 'yesterday' }).loginAs(admin),
      ['from']
    )
    const reversed = await client
      .get(`${ACCESS}/changes`)
      .qs({ from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' })
      .loginAs(admin)
    assertValidationError(assert, reversed, ['to'])
    const tooLong = await client
      .get(`${ACCESS}/changes`)
      .qs({ from: '2024-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' })
      .loginAs(admin)
    assertValidationError(assert, tooLong, ['to'])
    assertValidationError(
      assert,
      await client.get(`${ACCESS}/export`).qs({ format: 'pdf' }).loginAs(admin),
      ['format']
    )
  })
})

/** An hour either side of now. */
const period = () => ({
  from: new Date(Date.now() - 3_600_000).toISOString(),
  to: new Date(Date.now() + 3_600_000).toISOString(),
})

test.group('Access review: changes and the matrix', (group) => {
  isolate(group)

  test('a role grant and its revocation, a role gaining codes and its scope', async ({
    client,
    assert,
  }) => {
    const { roles, admin } = await accounts()
    const user = await UserFactory.create()
    const assign = async (roleIds: number[]) =>
      (
        await client.put(`${ADMIN_PREFIX}/users/${user.id}/roles`).json({ roleIds }).loginAs(admin)
      ).assertStatus(200)
    await assign([roles.roleA.id, roles.roleB.id])
    await assign([roles.roleA.id])
    const button = await Menu.findByOrFail('permission', D.update)
    const menus = await client
      .put(`${ADMIN_PREFIX}/roles/${roles.roleB.id}/menus`)
      .json({ menuIds: [button.id] })
      .loginAs(admin)
    menus.assertStatus(200)
    const scope = await client
      .put(`${ADMIN_PREFIX}/roles/${roles.roleB.id}`)
      .json({ dataScope: 'self' })
      .loginAs(admin)
    scope.assertStatus(200)

    const response = await client
      .get(`${ACCESS}/changes`)
      .qs({ ...period(), pageSize: 100 })
      .loginAs(admin)
    response.assertStatus(200)
    const entries = response.body().data
    const ofUser = entries.filter((e: any) => e.subject.type === 'user' && e.subject.id === user.id)
    const ids = (refs: { id: number }[]) => refs.map((ref) => ref.id).sort()
    // Newest first: the revocation, then the grant.
    assert.lengthOf(ofUser, 2)
    assert.deepEqual(ids(ofUser[0].removed.roles), [roles.roleB.id])
    assert.deepEqual(ofUser[0].added.roles, [])
    assert.deepEqual(ids(ofUser[1].added.roles), [roles.roleA.id, roles.roleB.id].sort())
    assert.equal(ofUser[1].added.roles[0].name !== null, true)
    assert.equal(ofUser[0].actor, admin.account)
    assert.equal(ofUser[0].subject.name, user.account)

    const ofRole = entries.filter(
      (e: any) => e.subject.type === 'role' && e.subject.id === roles.roleB.id
    )
    const scoped = ofRole.find((e: any) => e.scope !== null)
    // Factory roles keep the column's default, `all`.
    assert.deepEqual(scoped.scope.before, { dataScope: 'all', deptIds: null })
    assert.deepEqual(scoped.scope.after, { dataScope: 'self', deptIds: null })
    const menuChange = ofRole.find((e: any) => e.added.codes.length || e.removed.codes.length)
    assert.deepEqual(menuChange.added.codes, [D.update])
    assert.sameMembers(menuChange.removed.codes, [U.list, D.list])
    assert.equal(response.body().meta.total, entries.length)
  })

  test('the CSV matrix: a row per account, x where /me holds the code', async ({
    client,
    assert,
  }) => {
    const { overlapping, withDisabled, belowClosed, admin } = await accounts()
    const response = await client.get(`${ACCESS}/export`).qs({ format: 'csv' }).loginAs(admin)
    response.assertStatus(200)
    assert.equal(response.header('content-type'), 'text/csv; charset=utf-8')
    const [header, ...rows] = parseCsv(response.text())
    const codes = [...ALL_PERMISSION_CODES].sort()
    assert.deepEqual(header, ['id', 'account', 'nickname', 'status', ...codes])
    const [{ n }] = await db.from('users').count('* as n')
    assert.lengthOf(rows, Number(n))
    const users = [overlapping, withDisabled, belowClosed, admin]
    const own = await permissionsOf(client, users)
    for (const [i, user] of users.entries()) {
      const row = rows.find((cells) => Number(cells[0]) === user.id)!
      assert.equal(row[1], user.account)
      const marked = codes.filter((_, j) => row[4 + j] === 'x')
      assert.deepEqual(marked, [...own[i]].sort(), user.account)
      assert.isTrue(codes.every((_, j) => ['x', ''].includes(row[4 + j])))
    }
    // Audited like every export.
    const audit = await db
      .from('audit_logs')
      .where('target_type', 'access')
      .orderBy('id', 'desc')
      .first()
    assert.equal(audit.permission, AC.list)
  })
})
