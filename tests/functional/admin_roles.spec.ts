import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import Role from '#models/role'
import { PERMISSIONS } from '#auth/permissions'
import { isolate } from '#tests/helpers/database'
import { RoleFactory } from '#database/factories/role_factory'
import { userWithPermissions } from '#database/factories/user_factory'
import { button, chainOf, menuIdsOf, seededAdmin } from '#tests/helpers/rbac'

test.group('Admin roles: list, show, create, update, delete', (group) => {
  isolate(group)

  test('the list is paged, sorted by sort then id, and filtered', async ({ client, assert }) => {
    await RoleFactory.merge({ code: 'editor', name: 'Content editor', sort: 5 }).create()
    await RoleFactory.merge({ code: 'auditor', name: 'Auditor', sort: 3 })
      .apply('disabled')
      .create()
    const admin = await seededAdmin()
    const all = await client.get('/api/admin/roles').loginAs(admin)
    all.assertStatus(200)
    assert.deepEqual(
      all.body().data.map((role: Role) => role.code),
      ['super_admin', 'auditor', 'editor']
    )
    assert.deepEqual(all.body().meta, { total: 3, pageNum: 1, pageSize: 10, lastPage: 1 })
    assert.containSubset(all.body().data[0], { code: 'super_admin', isSystem: true })

    const codes = async (qs: Record<string, unknown>) =>
      (await client.get('/api/admin/roles').qs(qs).loginAs(admin))
        .body()
        .data.map((role: Role) => role.code)
    assert.deepEqual(await codes({ keyword: 'EDIT' }), ['editor'])
    assert.deepEqual(await codes({ status: 'disabled' }), ['auditor'])
    assert.deepEqual(await codes({ pageSize: 1, pageNum: 2 }), ['auditor'])
    ;(await client.get('/api/admin/roles').qs({ pageSize: 0 }).loginAs(admin)).assertStatus(422)
  })

  test('show returns the role with its menuIds; unknown ids are 404', async ({
    client,
    assert,
  }) => {
    const { role } = await userWithPermissions([PERMISSIONS.user.list])
    const admin = await seededAdmin()
    const response = await client.get(`/api/admin/roles/${role.id}`).loginAs(admin)
    response.assertStatus(200)
    assert.deepEqual(response.body().data.menuIds, await menuIdsOf(role.id))
    assert.deepEqual(
      response.body().data.menuIds,
      await chainOf(await button(PERMISSIONS.user.list))
    )
    for (const id of ['424242', '99999999999']) {
      for (const [method, url] of [
        ['GET', `/api/admin/roles/${id}`],
        ['PUT', `/api/admin/roles/${id}`],
        ['DELETE', `/api/admin/roles/${id}`],
        ['PUT', `/api/admin/roles/${id}/menus`],
      ]) {
        const body = url.endsWith('/menus') ? { menuIds: [] } : {}
        const missing = await client.request(url, method).json(body).loginAs(admin)
        assert.equal(missing.status(), 404, `${method} ${url}`)
      }
    }
  })

  test('create: 201, menus with their ancestors, isSystem false (and refused in the body)', async ({
    client,
    assert,
  }) => {
    const create = await button(PERMISSIONS.article.create)
    const response = await client
      .post('/api/admin/roles')
      .json({
        code: 'writer',
        name: 'Writer',
        sort: 4,
        remark: 'Writes articles',
        menuIds: [create.id],
      })
      .loginAs(await seededAdmin())
    response.assertStatus(201)
    assert.containSubset(response.body().data, {
      code: 'writer',
      name: 'Writer',
      status: 'enabled',
      sort: 4,
      remark: 'Writes articles',
      isSystem: false,
    })
    assert.deepEqual(response.body().data.menuIds, await chainOf(create))
    const forced = await client
      .post('/api/admin/roles')
      .json({ code: 'forced', name: 'Forced', isSystem: true })
      .loginAs(await seededAdmin())
    forced.assertStatus(422)
    assert.equal(forced.body().errors[0].field, 'isSystem')
  })

  test('create: a taken code is 409', async ({ client, assert }) => {
    await RoleFactory.merge({ code: 'editor' }).create()
    const admin = await seededAdmin()
    for (const code of ['editor', 'super_admin']) {
      const response = await client
        .post('/api/admin/roles')
        .json({ code, name: 'Duplicate' })
        .loginAs(admin)
      response.assertStatus(409)
      assert.equal(response.body().errors[0].code, 'E_CONFLICT')
    }
    assert.lengthOf(await Role.query().where('code', 'editor'), 1)
  })

  test('create: invalid bodies are 422: {name}')
    .with([
      { name: 'missing code and name', body: {}, fields: ['code', 'name'] },
      { name: 'code with spaces', body: { code: 'bad code', name: 'x' }, fields: ['code'] },
      { name: 'code in capitals', body: { code: 'Editor', name: 'x' }, fields: ['code'] },
      { name: 'unknown status', body: { code: 'ok', name: 'x', status: 'on' }, fields: ['status'] },
      { name: 'negative sort', body: { code: 'ok', name: 'x', sort: -1 }, fields: ['sort'] },
      {
        name: 'remark too long',
        body: { code: 'ok', name: 'x', remark: 'r'.repeat(501) },
        fields: ['remark'],
      },
      {
        name: 'unknown menu',
        body: { code: 'ok', name: 'x', menuIds: [424242] },
        fields: ['menuIds'],
      },
    ])
    .run(async ({ client, assert }, row) => {
      const response = await client
        .post('/api/admin/roles')
        .json(row.body)
        .loginAs(await seededAdmin())
      response.assertStatus(422)
      assert.sameMembers(
        response.body().errors.map((error: { field: string }) => error.field),
        row.fields
      )
      assert.isNull(await Role.findBy('code', 'ok'))
    })

  test('update: name, code, status, sort, remark; a taken code is 409', async ({
    client,
    assert,
  }) => {
    const role = await RoleFactory.create()
    await RoleFactory.merge({ code: 'taken' }).create()
    const admin = await seededAdmin()
    const response = await client
      .put(`/api/admin/roles/${role.id}`)
      .json({ code: 'renamed', name: 'Renamed', status: 'disabled', sort: 9, remark: null })
      .loginAs(admin)
    response.assertStatus(200)
    assert.containSubset(response.body().data, {
      code: 'renamed',
      name: 'Renamed',
      status: 'disabled',
      sort: 9,
      remark: null,
    })
    const clash = await client
      .put(`/api/admin/roles/${role.id}`)
      .json({ code: 'taken' })
      .loginAs(admin)
    clash.assertStatus(409)
    assert.equal((await Role.findOrFail(role.id)).code, 'renamed')
    const invalid = await client
      .put(`/api/admin/roles/${role.id}`)
      .json({ name: 'n'.repeat(65), sort: 1.5 })
      .loginAs(admin)
    invalid.assertStatus(422)
    assert.sameMembers(
      invalid.body().errors.map((error: { field: string }) => error.field),
      ['name', 'sort']
    )
  })

  test('delete: 204; its user and menu links go with it (FK cascade)', async ({
    client,
    assert,
  }) => {
    const { user, role } = await userWithPermissions([PERMISSIONS.user.list])
    const response = await client.delete(`/api/admin/roles/${role.id}`).loginAs(await seededAdmin())
    response.assertStatus(204)
    assert.isNull(await Role.find(role.id))
    assert.lengthOf(await db.from('role_menus').where('role_id', role.id), 0)
    assert.lengthOf(await db.from('user_roles').where('role_id', role.id), 0)
    assert.isNotNull(await User.find(user.id))
  })
})

test.group('Admin roles: menu assignment and its immediate effect', (group) => {
  isolate(group)

  test('PUT menus replaces the set and adds the ancestors of every node', async ({
    client,
    assert,
  }) => {
    const role = await RoleFactory.create()
    const first = await button(PERMISSIONS.user.list)
    const second = await button(PERMISSIONS.article.publish)
    await role.related('menus').attach([first.id])
    const response = await client
      .put(`/api/admin/roles/${role.id}/menus`)
      .json({ menuIds: [second.id, second.id] })
      .loginAs(await seededAdmin())
    response.assertStatus(200)
    assert.deepEqual(await menuIdsOf(role.id), await chainOf(second))
    assert.deepEqual(response.body().data.menuIds, await chainOf(second))

    const cleared = await client
      .put(`/api/admin/roles/${role.id}/menus`)
      .json({ menuIds: [] })
      .loginAs(await seededAdmin())
    cleared.assertStatus(200)
    assert.deepEqual(await menuIdsOf(role.id), [])
  })

  test('PUT menus rejects unknown ids with 422 and keeps the old set', async ({
    client,
    assert,
  }) => {
    const { role } = await userWithPermissions([PERMISSIONS.user.list])
    const before = await menuIdsOf(role.id)
    const response = await client
      .put(`/api/admin/roles/${role.id}/menus`)
      .json({ menuIds: [before[0], 424242] })
      .loginAs(await seededAdmin())
    response.assertStatus(422)
    assert.containSubset(response.body().errors[0], { field: 'menuIds', rule: 'exists' })
    assert.include(response.body().errors[0].message, '424242')
    assert.deepEqual(await menuIdsOf(role.id), before)
    const malformed = await client
      .put(`/api/admin/roles/${role.id}/menus`)
      .json({ menuIds: 'all' })
      .loginAs(await seededAdmin())
    malformed.assertStatus(422)
  })

  test('removing a menu from a role: its holders get 403 on their very next request', async ({
    client,
  }) => {
    const { user, role } = await userWithPermissions([PERMISSIONS.user.list, PERMISSIONS.role.list])
    ;(await client.get('/api/admin/users').loginAs(user)).assertStatus(200)
    const keep = await button(PERMISSIONS.role.list)
    ;(
      await client
        .put(`/api/admin/roles/${role.id}/menus`)
        .json({ menuIds: [keep.id] })
        .loginAs(await seededAdmin())
    ).assertStatus(200)
    ;(await client.get('/api/admin/users').loginAs(user)).assertStatus(403)
    ;(await client.get('/api/admin/roles').loginAs(user)).assertStatus(200)
  })

  test('granting a menu: its holders may use the route on their very next request', async ({
    client,
  }) => {
    const { user, role } = await userWithPermissions([PERMISSIONS.role.list])
    ;(await client.get('/api/admin/articles').loginAs(user)).assertStatus(403)
    const list = await button(PERMISSIONS.article.list)
    const keep = await button(PERMISSIONS.role.list)
    ;(
      await client
        .put(`/api/admin/roles/${role.id}/menus`)
        .json({ menuIds: [keep.id, list.id] })
        .loginAs(await seededAdmin())
    ).assertStatus(200)
    ;(await client.get('/api/admin/articles').loginAs(user)).assertStatus(200)
  })

  test('disabling or deleting a role: its holders get 403 on their very next request', async ({
    client,
  }) => {
    const admin = await seededAdmin()
    const first = await userWithPermissions([PERMISSIONS.user.list])
    ;(await client.get('/api/admin/users').loginAs(first.user)).assertStatus(200)
    ;(
      await client
        .put(`/api/admin/roles/${first.role.id}`)
        .json({ status: 'disabled' })
        .loginAs(admin)
    ).assertStatus(200)
    ;(await client.get('/api/admin/users').loginAs(first.user)).assertStatus(403)

    const second = await userWithPermissions([PERMISSIONS.user.list])
    ;(await client.get('/api/admin/users').loginAs(second.user)).assertStatus(200)
    ;(await client.delete(`/api/admin/roles/${second.role.id}`).loginAs(admin)).assertStatus(204)
    ;(await client.get('/api/admin/users').loginAs(second.user)).assertStatus(403)
  })
})
