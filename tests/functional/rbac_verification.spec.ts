import { test } from '@japa/runner'
import { newCaptcha, rightVerify } from '#tests/helpers/captcha'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import Menu from '#models/menu'
import { PERMISSIONS } from '#auth/permissions'
import { withRealCommits } from '#tests/helpers/database'
import { ADMIN_ACCOUNT, challengeAnswer } from '#tests/helpers/auth'

/**
 * The verification procedure for a new role (docs/admin-modules.md, "Verifying a new role"), end
 * to end through HTTP only: create a role with only the target menus and some action permissions,
 * assign it to a non-super-admin account, log in with it through captcha -> verify -> login,
 * confirm what /me shows, call an endpoint outside the role directly and get 403.
 */
test.group('RBAC: the verification procedure for a new role', (group) => {
  // Logs in through the limiter, whose store has its own connection: real commits.
  withRealCommits(group)

  test('a role with the Articles page and its list/create buttons grants exactly that', async ({
    client,
    assert,
  }) => {
    const superAdmin = await User.findByOrFail('account', ADMIN_ACCOUNT)
    const articlesPage = await Menu.findByOrFail('name', 'Articles')
    const listButton = await Menu.findByOrFail('permission', PERMISSIONS.article.list)
    const createButton = await Menu.findByOrFail('permission', PERMISSIONS.article.create)

    // 1. The role, with only the target menus and some action permissions.
    const role = await client
      .post('/api/admin/roles')
      .loginAs(superAdmin)
      .json({ code: 'content_writer', name: 'Content writer' })
    role.assertStatus(201)
    const roleId = role.body().data.id
    const menus = await client
      .put(`/api/admin/roles/${roleId}/menus`)
      .loginAs(superAdmin)
      .json({ menuIds: [articlesPage.parentId, articlesPage.id, listButton.id, createButton.id] })
    menus.assertStatus(200)

    // 2. A non-super-admin account holding it.
    const user = await client
      .post('/api/admin/users')
      .loginAs(superAdmin)
      .json({ account: 'writer.one', nickname: 'Writer', password: 'Writer-Passw0rd-1' })
    user.assertStatus(201)
    const userId = user.body().data.id
    ;(
      await client
        .put(`/api/admin/users/${userId}/roles`)
        .loginAs(superAdmin)
        .json({ roleIds: [roleId] })
    ).assertStatus(200)
    assert.deepEqual(
      (await db.from('user_roles').where('user_id', userId)).map((row) => Number(row.role_id)),
      [roleId]
    )

    // 3. Log in as it, through the real captcha flow.
    const captcha = await newCaptcha(client)
    captcha.assertStatus(200)
    const challenge = captcha.body().data
    const verify = await client
      .post('/api/auth/captcha/verify')
      .json(await rightVerify(challenge, await challengeAnswer(challenge.captchaId)))
    verify.assertStatus(200)
    const login = await client.post('/api/auth/login').json({
      account: 'writer.one',
      password: 'Writer-Passw0rd-1',
      captchaToken: verify.body().data.captchaToken,
    })
    login.assertStatus(200)
    // The administrator chose the password: the account's first step is to change it.
    const changed = await client
      .put('/api/auth/password')
      .bearerToken(login.body().data.token)
      .json({ currentPassword: 'Writer-Passw0rd-1', newPassword: 'Writer-Own-Passphrase-2' })
    changed.assertStatus(200)
    const token = changed.body().data.token

    // 4. /me shows exactly those menus and codes (what the frontend shows and hides).
    const me = await client.get('/api/auth/me').bearerToken(token)
    me.assertStatus(200)
    const { data } = me.body()
    assert.deepEqual(data.roles, [
      { id: roleId, code: 'content_writer', name: 'Content writer', status: 'enabled' },
    ])
    assert.deepEqual(
      data.menus.map(
        (node: { name: string; children: { name: string; children: unknown[] }[] }) => ({
          name: node.name,
          children: node.children.map((child) => ({ name: child.name, children: child.children })),
        })
      ),
      [{ name: 'Content', children: [{ name: 'Articles', children: [] }] }]
    )
    assert.deepEqual(
      data.permissions,
      [PERMISSIONS.article.create, PERMISSIONS.article.list].sort()
    )

    // 5. Inside the role: allowed.
    ;(await client.get('/api/admin/articles').bearerToken(token)).assertStatus(200)
    const created = await client
      .post('/api/admin/articles')
      .bearerToken(token)
      .json({ title: 'Written by the writer', content: 'Body', category: 'news' })
    created.assertStatus(201)

    // 6. Outside it, called directly: 403, and nothing changes.
    const articleId = created.body().data.id
    const outside: [string, string, Record<string, unknown>][] = [
      ['POST', `/api/admin/articles/${articleId}/publish`, {}],
      ['DELETE', `/api/admin/articles/${articleId}`, {}],
      ['GET', '/api/admin/users', {}],
      ['PUT', `/api/admin/roles/${roleId}/menus`, { menuIds: [listButton.id] }],
      ['POST', '/api/admin/users', { account: 'sneaky', password: 'Quiet-Harbor-Passw0rd-1' }],
    ]
    for (const [method, url, body] of outside) {
      const request = client.request(url, method).bearerToken(token)
      const response =
        method === 'GET' || method === 'DELETE' ? await request : await request.json(body)
      response.assertStatus(403)
      assert.deepEqual(response.body().errors[0].code, 'E_FORBIDDEN')
    }
    const article = await db.from('articles').where('id', articleId).firstOrFail()
    assert.equal(article.status, 'draft')
    assert.isNull(await User.findBy('account', 'sneaky'))
    const [links] = await db.from('role_menus').where('role_id', roleId).count('* as total')
    assert.equal(Number(links.total), 4)
  }).timeout(60_000)
})
