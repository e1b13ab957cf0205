import { sessionToken } from '#tests/helpers/auth'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import hash from '@adonisjs/core/services/hash'
import User from '#models/user'
import Article from '#models/article'
import Dept from '#models/dept'
import { PERMISSIONS } from '#auth/permissions'
import { isolate } from '#tests/helpers/database'
import { RoleFactory } from '#database/factories/role_factory'
import { TEST_PASSWORD, UserFactory, userWithPermissions } from '#database/factories/user_factory'
import { seededAdmin } from '#tests/helpers/rbac'

const { user: P } = PERMISSIONS
const bearer = async (user: User) =>
  `Bearer ${(await sessionToken(user.id, user.tokenVersion)).token}`

test.group('Admin users: list and show', (group) => {
  isolate(group)

  test('the list is paged, filtered and never shows password or tokenVersion', async ({
    client,
    assert,
  }) => {
    const admin = await seededAdmin()
    const editors = await RoleFactory.create()
    await UserFactory.merge({ account: 'alice', nickname: 'Alice Liddell' }).create()
    const bob = await UserFactory.merge({ account: 'bob', nickname: 'Robert' }).create()
    await UserFactory.merge({ account: 'carol', nickname: 'Caro' }).apply('disabled').create()
    await UserFactory.merge({ account: 'under_score', nickname: '100% real' }).create()
    await bob.related('roles').attach([editors.id])

    const all = await client.get('/api/admin/users').qs({ pageSize: 2 }).loginAs(admin)
    all.assertStatus(200)
    assert.deepEqual(all.body().meta, { total: 5, pageNum: 1, pageSize: 2, lastPage: 3 })
    assert.lengthOf(all.body().data, 2)
    assert.deepEqual(Object.keys(all.body().data[0]).sort(), [
      'account',
      'avatarUrl',
      'createdAt',
      'deptId',
      'email',
      'emailVerified',
      'id',
      'lastLoginAt',
      'lockedUntil',
      'nickname',
      'passwordChangeRequired',
      'passwordExpiresAt',
      'roleIds',
      'roles',
      'status',
      'twoFactorEnabled',
      'updatedAt',
    ])
    assert.notInclude(JSON.stringify(all.body()), 'argon2')
    assert.notInclude(JSON.stringify(all.body()), 'tokenVersion')

    const accounts = async (qs: Record<string, unknown>) => {
      const response = await client.get('/api/admin/users').qs(qs).loginAs(admin)
      response.assertStatus(200)
      return response.body().data.map((row: { account: string }) => row.account)
    }
    // Case-insensitive, on account or nickname.
    assert.deepEqual(await accounts({ keyword: 'ROB' }), ['bob'])
    assert.deepEqual(await accounts({ keyword: 'ali' }), ['alice'])
    // LIKE wildcards are taken literally.
    assert.deepEqual(await accounts({ keyword: '%' }), ['under_score'])
    assert.deepEqual(await accounts({ keyword: '_' }), ['under_score'])
    assert.deepEqual(await accounts({ status: 'disabled' }), ['carol'])
    assert.deepEqual(await accounts({ roleId: editors.id }), ['bob'])

    // deptId: that department and every department below it (not its parent nor its siblings).
    const dept = (name: string, parentId: number | null) =>
      Dept.create({ name, parentId, sort: 0, status: 'enabled' })
    const head = await dept('Head office', null)
    const sales = await dept('Sales', head.id)
    const east = await dept('Sales east', sales.id)
    const rnd = await dept('R&D', head.id)
    const moveTo = (account: string, deptId: number) =>
      User.query().where('account', account).update({ deptId })
    await moveTo('alice', sales.id)
    await moveTo('bob', east.id)
    await moveTo('carol', rnd.id)
    await moveTo('under_score', head.id)
    assert.deepEqual(await accounts({ deptId: sales.id, sort: 'account' }), ['alice', 'bob'])
    assert.deepEqual(await accounts({ deptId: east.id }), ['bob'])
    assert.deepEqual(await accounts({ deptId: head.id, sort: 'account' }), [
      'alice',
      'bob',
      'carol',
      'under_score',
    ])
    assert.deepEqual(await accounts({ deptId: 424242 }), [])

    const page3 = await client
      .get('/api/admin/users')
      .qs({ pageSize: 2, pageNum: 3 })
      .loginAs(admin)
    assert.lengthOf(page3.body().data, 1)
  })

  test('list query shapes are validated: {name}')
    .with([
      { name: 'pageSize above 100', qs: { pageSize: 101 }, field: 'pageSize' },
      { name: 'pageNum 0', qs: { pageNum: 0 }, field: 'pageNum' },
      { name: 'unknown status', qs: { status: 'gone' }, field: 'status' },
      { name: 'roleId not a number', qs: { roleId: 'x' }, field: 'roleId' },
      { name: 'deptId not a number', qs: { deptId: 'x' }, field: 'deptId' },
      { name: 'keyword too long', qs: { keyword: 'k'.repeat(65) }, field: 'keyword' },
    ])
    .run(async ({ client, assert }, row) => {
      const response = await client
        .get('/api/admin/users')
        .qs(row.qs)
        .loginAs(await seededAdmin())
      response.assertStatus(422)
      assert.equal(response.body().errors[0].code, 'E_VALIDATION_ERROR')
      assert.equal(response.body().errors[0].field, row.field)
    })

  test('show returns the account with its roleIds', async ({ client, assert }) => {
    const { user, role } = await userWithPermissions([P.list])
    const response = await client.get(`/api/admin/users/${user.id}`).loginAs(await seededAdmin())
    response.assertStatus(200)
    assert.equal(response.body().data.account, user.account)
    assert.deepEqual(response.body().data.roleIds, [role.id])
    assert.deepEqual(response.body().data.roles, [
      { id: role.id, code: role.code, name: role.name, status: 'enabled' },
    ])
    assert.notProperty(response.body().data, 'password')
    assert.notProperty(response.body().data, 'tokenVersion')
  })

  test('unknown ids are 404: {id}')
    .with([{ id: '999999' }, { id: '9999999999' }, { id: 'abc' }, { id: '0' }, { id: '-1' }])
    .run(async ({ client, assert }, { id }) => {
      const admin = await seededAdmin()
      for (const [method, url] of [
        ['GET', `/api/admin/users/${id}`],
        ['PUT', `/api/admin/users/${id}`],
        ['DELETE', `/api/admin/users/${id}`],
        ['PUT', `/api/admin/users/${id}/roles`],
        ['POST', `/api/admin/users/${id}/password-reset`],
      ]) {
        const body = url.endsWith('/roles')
          ? { roleIds: [] }
          : url.endsWith('/password-reset')
            ? { password: 'Some-valid-passphrase-3' }
            : {}
        const response = await client.request(url, method).json(body).loginAs(admin)
        assert.equal(response.status(), 404, `${method} ${url}`)
        assert.equal(response.body().errors[0].code, 'E_NOT_FOUND')
      }
    })
})

test.group('Admin users: create', (group) => {
  isolate(group)

  test('creates an account with a hashed password and its roles', async ({ client, assert }) => {
    const role = await RoleFactory.create()
    const response = await client
      .post('/api/admin/users')
      .json({
        account: 'dora',
        password: 'Explorer-map-2024',
        nickname: 'Dora',
        email: 'dora@example.com',
        roleIds: [role.id, role.id],
      })
      .loginAs(await seededAdmin())
    response.assertStatus(201)
    assert.containSubset(response.body().data, {
      account: 'dora',
      nickname: 'Dora',
      email: 'dora@example.com',
      status: 'enabled',
      roleIds: [role.id],
    })
    const stored = await User.findByOrFail('account', 'dora')
    assert.match(stored.password, /^\$argon2id\$/)
    assert.isTrue(await hash.verify(stored.password, 'Explorer-map-2024'))
    assert.equal(stored.tokenVersion, 0)
  })

  test('a taken account is 409, also in another letter case', async ({ client, assert }) => {
    const admin = await seededAdmin()
    for (const account of ['admin', 'ADMIN']) {
      const response = await client
        .post('/api/admin/users')
        .json({ account, password: 'Some-valid-passphrase-3' })
        .loginAs(admin)
      response.assertStatus(409)
      assert.equal(response.body().errors[0].code, 'E_CONFLICT')
    }
    assert.equal(Number((await db.from('users').count('* as n'))[0].n), 1)
  })

  test('invalid bodies are 422 with one entry per field: {name}')
    .with([
      { name: 'empty body', body: {}, fields: ['account', 'password'] },
      {
        name: 'bad account characters',
        body: { account: 'a b', password: 'x'.repeat(12) },
        fields: ['account'],
      },
      {
        name: 'bad email',
        body: { account: 'erin', password: 'Valid-passphrase-9', email: 'nope' },
        fields: ['email'],
      },
      {
        name: 'unknown status',
        body: { account: 'erin', password: 'Valid-passphrase-9', status: 'root' },
        fields: ['status'],
      },
      {
        name: 'roleIds not ids',
        body: { account: 'erin', password: 'Valid-passphrase-9', roleIds: ['x', 0] },
        fields: ['roleIds.0', 'roleIds.1'],
      },
      {
        name: 'short password (policy)',
        body: { account: 'erin', password: 'short' },
        fields: ['password'],
      },
      {
        name: 'common password (policy)',
        body: { account: 'erin', password: 'password123' },
        fields: ['password'],
      },
      {
        name: 'password = account (policy)',
        body: { account: 'erin-the-admin', password: 'erin-the-admin' },
        fields: ['password'],
      },
      {
        name: 'unknown role id',
        body: { account: 'erin', password: 'Valid-passphrase-9', roleIds: [424242] },
        fields: ['roleIds'],
      },
    ])
    .run(async ({ client, assert }, row) => {
      const response = await client
        .post('/api/admin/users')
        .json(row.body)
        .loginAs(await seededAdmin())
      response.assertStatus(422)
      const errors = response.body().errors as { code: string; field: string }[]
      assert.sameMembers(
        errors.map((error) => error.field),
        row.fields
      )
      assert.isTrue(errors.every((error) => error.code === 'E_VALIDATION_ERROR'))
      assert.isNull(await User.findBy('account', 'erin'))
    })

  test('mass assignment through the body is refused (tokenVersion, isSystem, id, lastLoginAt)', async ({
    client,
    assert,
  }) => {
    const admin = await seededAdmin()
    for (const [key, value] of Object.entries({
      tokenVersion: 99,
      token_version: 99,
      isSystem: true,
      id: 777,
      lastLoginAt: '2020-01-01T00:00:00Z',
    })) {
      const response = await client
        .post('/api/admin/users')
        .json({ account: 'frank', password: 'Candidly-speaking-1', [key]: value })
        .loginAs(admin)
      response.assertStatus(422)
      assert.containSubset(response.body().errors, [
        { code: 'E_VALIDATION_ERROR', field: key, rule: 'unknownProperty' },
      ])
    }
    assert.isNull(await User.findBy('account', 'frank'))
  })
})

test.group('Admin users: update, delete, roles, password reset', (group) => {
  isolate(group)

  test('update changes profile and status; tokenVersion, password and account in the body are refused', async ({
    client,
    assert,
  }) => {
    const target = await UserFactory.create()
    const before = await User.findOrFail(target.id)
    const response = await client
      .put(`/api/admin/users/${target.id}`)
      .json({
        nickname: 'New name',
        email: 'new@example.com',
      })
      .loginAs(await seededAdmin())
    response.assertStatus(200)
    // tokenVersion, password and account are no fields of this body: refused, nothing written.
    for (const [key, value] of Object.entries({
      tokenVersion: 50,
      password: 'Sneaky-new-password-1',
      account: 'renamed',
    })) {
      const refused = await client
        .put(`/api/admin/users/${target.id}`)
        .json({ nickname: 'Other name', [key]: value })
        .loginAs(await seededAdmin())
      refused.assertStatus(422)
      assert.equal(refused.body().errors[0].field, key)
    }
    assert.containSubset(response.body().data, { nickname: 'New name', email: 'new@example.com' })
    const after = await User.findOrFail(target.id)
    assert.equal(after.account, before.account)
    assert.equal(after.password, before.password)
    assert.equal(after.tokenVersion, before.tokenVersion)

    const cleared = await client
      .put(`/api/admin/users/${target.id}`)
      .json({ email: null })
      .loginAs(await seededAdmin())
    cleared.assertStatus(200)
    assert.isNull(cleared.body().data.email)
  })

  test('disabling a user increments tokenVersion; its token is 401 on the very next request', async ({
    client,
    assert,
  }) => {
    const { user } = await userWithPermissions([P.list])
    const token = await bearer(user)
    ;(await client.get('/api/admin/users').header('authorization', token)).assertStatus(200)

    const response = await client
      .put(`/api/admin/users/${user.id}`)
      .json({ status: 'disabled' })
      .loginAs(await seededAdmin())
    response.assertStatus(200)
    assert.equal(response.body().data.status, 'disabled')
    assert.equal((await User.findOrFail(user.id)).tokenVersion, user.tokenVersion + 1)
    ;(await client.get('/api/admin/users').header('authorization', token)).assertStatus(401)

    // Re-enabling does not bring the old token back.
    await client
      .put(`/api/admin/users/${user.id}`)
      .json({ status: 'enabled' })
      .loginAs(await seededAdmin())
    ;(await client.get('/api/admin/users').header('authorization', token)).assertStatus(401)
  })

  test('delete removes the account and its role links; its token is 401; articles stay', async ({
    client,
    assert,
  }) => {
    const { user } = await userWithPermissions([P.list])
    const article = await Article.create({
      slug: 'by-doomed',
      title: 'By a deleted author',
      summary: '',
      content: 'x',
      category: 'news',
      status: 'draft',
      authorId: user.id,
    })
    const token = await bearer(user)
    const response = await client.delete(`/api/admin/users/${user.id}`).loginAs(await seededAdmin())
    response.assertStatus(204)
    assert.isNull(await User.find(user.id))
    assert.lengthOf(await db.from('user_roles').where('user_id', user.id), 0)
    assert.isNull((await Article.findOrFail(article.id)).authorId)
    ;(await client.get('/api/admin/users').header('authorization', token)).assertStatus(401)
  })

  test('PUT roles replaces the set; the change applies to the very next request', async ({
    client,
    assert,
  }) => {
    const { user, role } = await userWithPermissions([P.list])
    const other = await RoleFactory.create()
    ;(await client.get('/api/admin/users').loginAs(user)).assertStatus(200)

    const response = await client
      .put(`/api/admin/users/${user.id}/roles`)
      .json({ roleIds: [other.id] })
      .loginAs(await seededAdmin())
    response.assertStatus(200)
    assert.deepEqual(response.body().data.roleIds, [other.id])
    const links = await db.from('user_roles').where('user_id', user.id)
    assert.deepEqual(
      links.map((link) => Number(link.role_id)),
      [other.id]
    )
    ;(await client.get('/api/admin/users').loginAs(user)).assertStatus(403)

    // And back: granted again on the next request.
    await client
      .put(`/api/admin/users/${user.id}/roles`)
      .json({ roleIds: [role.id] })
      .loginAs(await seededAdmin())
    ;(await client.get('/api/admin/users').loginAs(user)).assertStatus(200)
  })

  test('PUT roles validates the body: {name}')
    .with([
      { name: 'missing roleIds', body: {}, status: 422 },
      { name: 'not an array', body: { roleIds: 3 }, status: 422 },
      { name: 'unknown role', body: { roleIds: [987654] }, status: 422 },
    ])
    .run(async ({ client, assert }, row) => {
      const { user, role } = await userWithPermissions([])
      const response = await client
        .put(`/api/admin/users/${user.id}/roles`)
        .json(row.body)
        .loginAs(await seededAdmin())
      response.assertStatus(row.status)
      assert.equal(response.body().errors[0].field, 'roleIds')
      const links = await db.from('user_roles').where('user_id', user.id)
      assert.deepEqual(
        links.map((link) => Number(link.role_id)),
        [role.id]
      )
    })

  test('password reset: new digest, tokenVersion + 1, old token 401, the new password must be changed first', async ({
    client,
    assert,
  }) => {
    const { user } = await userWithPermissions([P.list])
    const token = await bearer(user)
    const response = await client
      .post(`/api/admin/users/${user.id}/password-reset`)
      .json({ password: 'Fresh-start-passphrase-5' })
      .loginAs(await seededAdmin())
    response.assertStatus(200)
    assert.notProperty(response.body().data, 'password')
    const stored = await User.findOrFail(user.id)
    assert.equal(stored.tokenVersion, user.tokenVersion + 1)
    assert.isTrue(await hash.verify(stored.password, 'Fresh-start-passphrase-5'))
    assert.isFalse(await hash.verify(stored.password, TEST_PASSWORD))
    ;(await client.get('/api/admin/users').header('authorization', token)).assertStatus(401)
    // The administrator chose it: the owner must change it first (password_lifecycle.spec.ts).
    assert.isTrue(stored.mustChangePassword)
    ;(await client.get('/api/admin/users').loginAs(stored)).assertStatus(403)
    ;(await client.get('/api/auth/me').loginAs(stored)).assertStatus(200)
  })

  test('password reset applies the password policy (422) and changes nothing then', async ({
    client,
    assert,
  }) => {
    const target = await UserFactory.create()
    for (const password of ['short', 'password123', target.account, '']) {
      const response = await client
        .post(`/api/admin/users/${target.id}/password-reset`)
        .json({ password })
        .loginAs(await seededAdmin())
      response.assertStatus(422)
      assert.equal(response.body().errors[0].field, 'password')
    }
    const stored = await User.findOrFail(target.id)
    assert.equal(stored.tokenVersion, 0)
    assert.equal(stored.password, target.password)
  })
})
