import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import User from '#models/user'
import Menu from '#models/menu'
import ApiToken from '#models/api_token'
import { PERMISSIONS } from '#auth/permissions'
import { MAX_LIVE_PER_ACCOUNT } from '#auth/api_tokens'
import { digest } from '#core/secrets'
import { isolate } from '#tests/helpers/database'
import { countQueries, superAdminUser, userWithPermissions } from '#tests/helpers/auth'
import { assertForbidden, assertValidationError } from '#tests/helpers/assertions'
import { apiTokenFor } from '#tests/helpers/api_tokens'

/**
 * API tokens (app/auth/api_tokens.ts, docs/architecture.md, "API tokens"), mostly from the side
 * of someone holding a token: where it is refused, what kills it, what it may do.
 */
const P = PERMISSIONS
const TOKEN_TEXT = /^rbac_[A-Za-z0-9_-]{43}$/
const minutesAgo = (minutes: number) => Date.now() - minutes * 60_000

/** The admin user list with a bearer token: the route of `system:user:list`. */
const listUsers = (client: ApiClient, token: string) =>
  client.get('/api/admin/users').bearerToken(token)

const assertUnauthorized = (
  assert: { equal: (a: unknown, b: unknown, m?: string) => void },
  response: { status(): number; body(): any }
) => {
  assert.equal(response.status(), 401, JSON.stringify(response.body()))
  assert.equal(response.body().errors[0].code, 'E_UNAUTHORIZED')
}

test.group('API tokens: own tokens (/api/auth/tokens)', (group) => {
  isolate(group)

  test('created with codes the caller holds: 201, shown once, stored as a SHA-256 digest', async ({
    client,
    assert,
  }) => {
    const { user } = await userWithPermissions([P.user.list, P.role.list])
    const created = await client
      .post('/api/auth/tokens')
      .loginAs(user)
      .json({ name: 'CI smoke', permissions: [P.user.list, P.user.list], expiresInDays: 30 })
    created.assertStatus(201)
    const { token, ...shown } = created.body().data
    assert.match(token, TOKEN_TEXT)
    assert.include(shown, { name: 'CI smoke', hint: token.slice(-4), status: 'active' })
    assert.deepEqual(shown.permissions, [P.user.list])
    assert.isNull(shown.lastUsedAt)
    const days = (Date.parse(shown.expiresAt) - Date.parse(shown.createdAt)) / 86_400_000
    assert.equal(days, 30)

    // Stored: the digest, never the token.
    const [row] = await db.from('api_tokens').where('user_id', user.id)
    assert.equal(row.token_hash, digest(token))
    assert.notInclude(JSON.stringify(row), token)

    // Listed without it, by its owner and by monitors.
    const own = await client.get('/api/auth/tokens').loginAs(user)
    own.assertStatus(200)
    assert.deepEqual(own.body().data, [shown])
    const monitor = (await userWithPermissions([P.token.list])).user
    const all = await client.get('/api/admin/tokens').loginAs(monitor)
    all.assertStatus(200)
    assert.deepEqual(all.body().data[0], {
      ...shown,
      userId: user.id,
      account: user.account,
      nickname: user.nickname,
    })
    for (const body of [own.body(), all.body()]) {
      assert.notInclude(JSON.stringify(body), token)
      assert.notInclude(JSON.stringify(body), row.token_hash)
    }

    // Audited as the owner's own act, without the token or its digest.
    const audit = await db.from('audit_logs').where('target_type', 'token').firstOrFail()
    assert.include(audit, { actor_id: user.id, permission: 'self:token:create', token_id: null })
    assert.notInclude(audit.changes, token.slice(5))
    assert.notInclude(audit.changes, row.token_hash)

    // It works where the owner's codes do.
    ;(await listUsers(client, token)).assertStatus(200)
  })

  test('a code the creator does not hold -> 403, nothing stored', async ({ client, assert }) => {
    const { user } = await userWithPermissions([P.user.list])
    const response = await client
      .post('/api/auth/tokens')
      .loginAs(user)
      .json({ name: 'escalate', permissions: [P.user.list, P.user.delete], expiresInDays: 1 })
    assertForbidden(assert, response, P.user.delete)
    assert.lengthOf(await db.from('api_tokens'), 0)
    assert.lengthOf(await db.from('audit_logs'), 0)
  })

  test('422 for {name}, nothing stored')
    .with([
      { name: 'no name', body: { permissions: [P.user.list], expiresInDays: 1 }, field: 'name' },
      {
        name: 'markup in the name',
        body: { name: '<b>x</b>', permissions: [P.user.list], expiresInDays: 1 },
        field: 'name',
      },
      {
        name: 'no codes',
        body: { name: 'x', permissions: [], expiresInDays: 1 },
        field: 'permissions',
      },
      {
        name: 'a code outside the catalogue',
        body: { name: 'x', permissions: ['system:user:everything'], expiresInDays: 1 },
        field: 'permissions.0',
      },
      {
        name: 'no expiry',
        body: { name: 'x', permissions: [P.user.list] },
        field: 'expiresInDays',
      },
      {
        name: 'an expiry over 365 days',
        body: { name: 'x', permissions: [P.user.list], expiresInDays: 366 },
        field: 'expiresInDays',
      },
      {
        name: 'a fractional expiry',
        body: { name: 'x', permissions: [P.user.list], expiresInDays: 1.5 },
        field: 'expiresInDays',
      },
    ])
    .run(async ({ client, assert }, row) => {
      const { user } = await userWithPermissions([P.user.list])
      const response = await client.post('/api/auth/tokens').loginAs(user).json(row.body)
      assertValidationError(assert, response, [row.field])
      assert.lengthOf(await db.from('api_tokens'), 0)
    })

  test(`at most ${MAX_LIVE_PER_ACCOUNT} live tokens per account (409); dead ones do not count`, async ({
    client,
    assert,
  }) => {
    const { user } = await userWithPermissions([P.user.list])
    for (let i = 1; i < MAX_LIVE_PER_ACCOUNT; i++) await apiTokenFor(user, [P.user.list])
    await apiTokenFor(user, [P.user.list], { expiresAt: minutesAgo(1) })
    const body = { name: 'one more', permissions: [P.user.list], expiresInDays: 1 }
    ;(await client.post('/api/auth/tokens').loginAs(user).json(body)).assertStatus(201)
    const refused = await client.post('/api/auth/tokens').loginAs(user).json(body)
    refused.assertStatus(409)
    assert.equal(refused.body().errors[0].code, 'E_CONFLICT')
  })

  test('revoked by its owner: 204, dead at once; another account’s token is a 404 and stays', async ({
    client,
    assert,
  }) => {
    const { user } = await userWithPermissions([P.user.list])
    const other = (await userWithPermissions([P.user.list])).user
    const mine = await apiTokenFor(user, [P.user.list])
    const theirs = await apiTokenFor(other, [P.user.list])

    const foreign = await client.delete(`/api/auth/tokens/${theirs.row.id}`).loginAs(user)
    foreign.assertStatus(404)
    ;(await listUsers(client, theirs.token)).assertStatus(200)

    ;(await client.delete(`/api/auth/tokens/${mine.row.id}`).loginAs(user)).assertStatus(204)
    assertUnauthorized(assert, await listUsers(client, mine.token))
    assert.isNull(await ApiToken.find(mine.row.id))
    const audit = await db.from('audit_logs').where('permission', 'self:token:delete').firstOrFail()
    assert.include(audit, { actor_id: user.id, target_id: String(mine.row.id) })
  })
})

test.group('API tokens: refused outside /api/admin, and when dead', (group) => {
  isolate(group)

  test('{method} {url} with a valid token -> 401 (a token cannot change a password or mint tokens)')
    .with([
      { method: 'GET', url: '/api/auth/me' },
      { method: 'PUT', url: '/api/auth/password' },
      { method: 'GET', url: '/api/auth/tokens' },
      { method: 'POST', url: '/api/auth/tokens' },
      { method: 'GET', url: '/api/auth/sessions' },
      { method: 'POST', url: '/api/auth/logout' },
      { method: 'GET', url: '/api/auth/me/grantable-menus' },
    ] as const)
    .run(async ({ client, assert }, row) => {
      const owner = await superAdminUser()
      const { token } = await apiTokenFor(owner, [P.user.list])
      const body = {
        currentPassword: 'Correct-Horse-9-Battery',
        newPassword: 'A-whole-new-passphrase-42',
        name: 'minted',
        permissions: [P.user.list],
        expiresInDays: 1,
      }
      const response = await client.request(row.url, row.method).bearerToken(token).json(body)
      assertUnauthorized(assert, response)
      assert.include(response.body().errors[0].message, '/api/admin')
      const stored = await User.findOrFail(owner.id)
      assert.equal(stored.tokenVersion, owner.tokenVersion)
      assert.lengthOf(await db.from('api_tokens'), 1)
    })

  test('{name} -> 401')
    .with([
      {
        name: 'owner disabled',
        kill: async (owner: User) => {
          await User.query().where('id', owner.id).update({ status: 'disabled' })
        },
      },
      {
        name: 'owner deleted (the token goes with it)',
        gone: true,
        kill: async (owner: User) => {
          await User.query().where('id', owner.id).delete()
        },
      },
      {
        name: 'owner reset (tokenVersion moved)',
        kill: async (owner: User) => {
          await User.query().where('id', owner.id).increment('token_version', 1)
        },
      },
      {
        name: 'expired',
        kill: async (_: User, id: number) => {
          await ApiToken.query()
            .where('id', id)
            .update({ expires_at: minutesAgo(1) })
        },
      },
      {
        name: 'revoked (row deleted)',
        kill: async (_: User, id: number) => {
          await ApiToken.query().where('id', id).delete()
        },
      },
    ])
    .run(async ({ client, assert }, row) => {
      const { user: owner } = await userWithPermissions([P.user.list])
      const { token, row: stored } = await apiTokenFor(owner, [P.user.list])
      ;(await listUsers(client, token)).assertStatus(200)
      await row.kill(owner, stored.id)
      assertUnauthorized(assert, await listUsers(client, token))
      if (row.gone) assert.isNull(await ApiToken.find(stored.id))
    })

  test('a reset through the API and a disable through the API kill the tokens for good', async ({
    client,
    assert,
  }) => {
    const admin = await superAdminUser()
    const { user: owner } = await userWithPermissions([P.user.list])
    const first = await apiTokenFor(owner, [P.user.list])
    const second = await apiTokenFor(owner, [P.user.list])
    ;(
      await client
        .post(`/api/admin/users/${owner.id}/password-reset`)
        .loginAs(admin)
        .json({ password: 'Brand-new-passphrase-2' })
    ).assertStatus(200)
    assertUnauthorized(assert, await listUsers(client, first.token))

    // The owner changes the password the administrator chose (password_lifecycle.spec.ts).
    const reset = await User.findOrFail(owner.id)
    await reset.merge({ mustChangePassword: false }).save()
    const fresh = await apiTokenFor(reset, [P.user.list])
    ;(await listUsers(client, fresh.token)).assertStatus(200)
    const disable = (status: string) =>
      client.put(`/api/admin/users/${owner.id}`).loginAs(admin).json({ status })
    ;(await disable('disabled')).assertStatus(200)
    ;(await disable('enabled')).assertStatus(200)
    // Re-enabled, still dead: disabling moved the tokenVersion.
    assertUnauthorized(assert, await listUsers(client, fresh.token))
    assertUnauthorized(assert, await listUsers(client, second.token))
    const own = await client.get('/api/auth/tokens').loginAs(await User.findOrFail(owner.id))
    assert.deepEqual(
      own.body().data.map((t: { status: string }) => t.status),
      ['revoked', 'revoked', 'revoked']
    )
  })

  test('{name} -> 401')
    .with([
      {
        name: 'an unknown token of the right shape',
        header: () => `Bearer rbac_${'A'.repeat(43)}`,
      },
      { name: 'a token one character short', header: (t: string) => `Bearer ${t.slice(0, -1)}` },
      {
        name: 'the digest instead of the token',
        header: (t: string) => `Bearer ${digest(t)}`,
      },
      { name: 'without the prefix', header: (t: string) => `Bearer ${t.slice(5)}` },
      { name: 'another scheme', header: (t: string) => `Token ${t}` },
    ])
    .run(async ({ client, assert }, row) => {
      const { user } = await userWithPermissions([P.user.list])
      const { token } = await apiTokenFor(user, [P.user.list])
      const response = await client
        .get('/api/admin/users')
        .header('authorization', row.header(token))
      assertUnauthorized(assert, response)
    })
})

test.group('API tokens: what a token may do', (group) => {
  isolate(group)

  test('effective codes = the token’s codes the owner still holds, on the very next request', async ({
    client,
    assert,
  }) => {
    const { user: owner, role } = await userWithPermissions([P.user.list, P.role.list])
    const { token, row } = await apiTokenFor(owner, [P.user.list])
    ;(await listUsers(client, token)).assertStatus(200)
    // The owner holds role:list, the token does not carry it.
    assertForbidden(assert, await client.get('/api/admin/roles').bearerToken(token))
    ;(await client.get('/api/admin/roles').loginAs(owner)).assertStatus(200)

    // The owner loses user:list (raw SQL): the token loses it on the next request.
    const button = await Menu.findByOrFail('permission', P.user.list)
    await db.from('role_menus').where({ role_id: role.id, menu_id: button.id }).delete()
    assertForbidden(assert, await listUsers(client, token))
    // Given back: the token has it again (it never held more than the owner).
    await db.table('role_menus').insert({ role_id: role.id, menu_id: button.id })
    ;(await listUsers(client, token)).assertStatus(200)

    // The token's own codes are read afresh too (no trigger needed: nothing cached depends on them).
    await db.from('api_tokens').where('id', row.id).update({ permissions: '[]' })
    assertForbidden(assert, await listUsers(client, token))
  })

  test('a super admin’s token is an ordinary caller: its codes only, no super-admin powers', async ({
    client,
    assert,
  }) => {
    const owner = await superAdminUser()
    const otherSuper = await superAdminUser()
    const { token } = await apiTokenFor(owner, [P.user.update])
    // The route passes (the code is carried), the policy refuses: only a super admin edits one.
    const response = await client
      .put(`/api/admin/users/${otherSuper.id}`)
      .bearerToken(token)
      .json({ nickname: 'Renamed by a script' })
    assertForbidden(assert, response, 'super administrator')
    assert.notEqual((await User.findOrFail(otherSuper.id)).nickname, 'Renamed by a script')
    assertForbidden(assert, await listUsers(client, token))
  })

  test('a write made with a token names it in the audit row, refused or done', async ({
    client,
    assert,
  }) => {
    const { user: owner } = await userWithPermissions([P.user.update, P.user.list])
    const target = (await userWithPermissions([])).user
    const { token, row } = await apiTokenFor(owner, [P.user.update])
    ;(
      await client.put(`/api/admin/users/${target.id}`).bearerToken(token).json({ nickname: 'Bot' })
    ).assertStatus(200)
    assertForbidden(assert, await client.delete(`/api/admin/users/${target.id}`).bearerToken(token))
    const rows = await db.from('audit_logs').orderBy('id')
    assert.deepEqual(
      rows.map((r) => [r.actor_id, r.token_id, r.permission, r.outcome]),
      [
        [owner.id, row.id, P.user.update, 'succeeded'],
        [owner.id, row.id, P.user.delete, 'refused'],
      ]
    )
    // Filterable by token in the audit log.
    const admin = await superAdminUser()
    const listed = await client.get(`/api/admin/audit-logs?tokenId=${row.id}`).loginAs(admin)
    assert.deepEqual(
      listed.body().data.map((r: { tokenId: number }) => r.tokenId),
      [row.id, row.id]
    )
  })

  test('1 SQL round trip per token request when nothing changed; last use written at most once a minute', async ({
    client,
    assert,
  }) => {
    const { user } = await userWithPermissions([P.token.list])
    const { token, row } = await apiTokenFor(user, [P.token.list])
    const get = () =>
      countQueries(() =>
        client.get('/api/admin/tokens').bearerToken(token).header('x-forwarded-for', '10.0.0.9')
      )

    // First use: the token statement, the owner's snapshot (cold cache), last use, the page.
    const first = await get()
    first.result.assertStatus(200)
    const used = await ApiToken.findOrFail(row.id)
    assert.isNotNull(used.lastUsedAt)
    assert.equal(used.lastUsedIp, '127.0.0.1')

    // Authentication: 1 statement (the list itself adds its own page queries).
    const baseline = (await get()).queries.length
    const auth = async () => {
      const { result, queries } = await countQueries(() =>
        client.get('/api/admin/users').bearerToken(token)
      )
      return { status: result.status(), queries }
    }
    // A refused route runs nothing but the guard's statement.
    const refused = await auth()
    assert.equal(refused.status, 403)
    assert.lengthOf(refused.queries, 1, refused.queries.join('\n'))
    assert.match(refused.queries[0], /FROM api_tokens t JOIN users/)
    assert.equal((await get()).queries.length, baseline)
    assert.equal((await ApiToken.findOrFail(row.id)).lastUsedAt, used.lastUsedAt)

    // A minute later: one more statement, once.
    await ApiToken.query()
      .where('id', row.id)
      .update({ last_used_at: minutesAgo(2) })
    assert.lengthOf((await auth()).queries, 2)
    assert.lengthOf((await auth()).queries, 1)
    assert.isAbove((await ApiToken.findOrFail(row.id)).lastUsedAt!, minutesAgo(1))

    // A change of what anyone holds: 2 (the owner's snapshot is recomputed), then 1 again.
    await db.rawQuery('UPDATE menus SET sort = sort + 1 WHERE permission = ?', [P.user.list])
    assert.lengthOf((await auth()).queries, 2)
    assert.lengthOf((await auth()).queries, 1)
  })
})

test.group('API tokens: monitors (/api/admin/tokens)', (group) => {
  isolate(group)

  test('a monitor revokes only tokens of accounts holding nothing it lacks (grant rule)', async ({
    client,
    assert,
  }) => {
    const { user: monitor } = await userWithPermissions([P.token.list, P.token.delete])
    const { user: bigger } = await userWithPermissions([P.token.list, P.user.delete])
    const { user: smaller } = await userWithPermissions([P.token.list])
    const superAdmin = await superAdminUser()
    const refusedTokens = [
      (await apiTokenFor(bigger, [P.token.list])).row,
      (await apiTokenFor(superAdmin, [P.token.list])).row,
    ]
    const allowed = (await apiTokenFor(smaller, [P.token.list])).row

    for (const target of refusedTokens) {
      assertForbidden(
        assert,
        await client.delete(`/api/admin/tokens/${target.id}`).loginAs(monitor)
      )
      assert.isNotNull(await ApiToken.find(target.id))
    }
    ;(await client.delete(`/api/admin/tokens/${allowed.id}`).loginAs(monitor)).assertStatus(204)
    assert.isNull(await ApiToken.find(allowed.id))
    ;(await client.delete(`/api/admin/tokens/${allowed.id}`).loginAs(monitor)).assertStatus(404)

    const rows = await db.from('audit_logs').orderBy('id')
    assert.deepEqual(
      rows.map((r) => [r.outcome, r.target_type, r.permission]),
      [
        ['refused', 'token', P.token.delete],
        ['succeeded', 'token', P.token.delete],
      ]
    )
    // A super admin may revoke any.
    for (const target of refusedTokens) {
      ;(await client.delete(`/api/admin/tokens/${target.id}`).loginAs(superAdmin)).assertStatus(204)
    }
    assert.lengthOf(await db.from('api_tokens'), 0)
  })

  test('with a token, the grant rule counts as held only what the token may do', async ({
    client,
    assert,
  }) => {
    const { user: monitor } = await userWithPermissions([P.token.delete, P.user.list])
    const { user: target } = await userWithPermissions([P.user.list])
    const first = (await apiTokenFor(target, [P.user.list])).row
    const second = (await apiTokenFor(target, [P.user.list])).row
    const { token } = await apiTokenFor(monitor, [P.token.delete])
    // The owner holds user:list, the token does not: the target holds more than the token.
    const refused = await client.delete(`/api/admin/tokens/${first.id}`).bearerToken(token)
    assertForbidden(assert, refused, 'not held')
    assert.isNotNull(await ApiToken.find(first.id))
    // The owner's own session may.
    ;(await client.delete(`/api/admin/tokens/${second.id}`).loginAs(monitor)).assertStatus(204)
  })

  test('the list filters by account (any case) and shows each token’s status', async ({
    client,
    assert,
  }) => {
    const { user: monitor } = await userWithPermissions([P.token.list])
    const { user: owner } = await userWithPermissions([P.user.list])
    await apiTokenFor(owner, [P.user.list], { name: 'live' })
    await apiTokenFor(owner, [P.user.list], { name: 'old', expiresAt: minutesAgo(1) })
    await apiTokenFor(monitor, [P.token.list], { name: 'monitor’s' })
    const response = await client
      .get(`/api/admin/tokens?account=${owner.account.toUpperCase()}`)
      .loginAs(monitor)
    response.assertStatus(200)
    assert.equal(response.body().meta.total, 2)
    assert.sameDeepMembers(
      response.body().data.map((t: { name: string; status: string }) => [t.name, t.status]),
      [
        ['live', 'active'],
        ['old', 'expired'],
      ]
    )
  })
})
