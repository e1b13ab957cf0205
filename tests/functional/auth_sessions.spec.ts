import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import User from '#models/user'
import { PERMISSIONS } from '#auth/permissions'
import { verifyAdminToken } from '#auth/jwt'
import { withRealCommits } from '#tests/helpers/database'
import {
  TEST_PASSWORD,
  countQueries,
  createAdmin,
  freshCredential,
  superAdminUser,
  userWithPermissions,
} from '#tests/helpers/auth'

const { session } = PERMISSIONS

/** A real login (captcha credential, password): a new session. */
async function login(client: ApiClient, account: string, userAgent = 'browser-a') {
  const response = await client
    .post('/api/auth/login')
    .header('user-agent', userAgent)
    .json({ account, password: TEST_PASSWORD, captchaToken: await freshCredential() })
  response.assertStatus(200)
  const token: string = response.body().data.token
  const claims = (await verifyAdminToken(token))!
  return { token, sessionId: claims.sessionId }
}

const me = (client: ApiClient, token: string) => client.get('/api/auth/me').bearerToken(token)

async function sessionRow(id: string) {
  return db.from('admin_sessions').where('id', id).first()
}

/** Login writes limiter rows through its own connection: real commits. */
test.group('Sessions: login, logout, own sessions', (group) => {
  withRealCommits(group)

  test('a login creates a session; the JWT names it as jti; the guard still makes 1 query', async ({
    client,
    assert,
  }) => {
    const account = await createAdmin('session.one')
    const { token, sessionId } = await login(client, 'session.one', 'Firefox/1')
    const row = await sessionRow(sessionId)
    assert.equal(Number(row.user_id), account.id)
    assert.equal(row.ip, '127.0.0.1')
    assert.equal(row.user_agent, 'Firefox/1')
    assert.isNull(row.ended_at)
    assert.isAbove(Number(row.expires_at), Date.now())

    await me(client, token) // the access snapshot is computed once
    const { result, queries } = await countQueries(() => me(client, token))
    result.assertStatus(200)
    assert.lengthOf(queries, 1, queries.join('\n'))
  })

  test('logout ends this session only: its token is a 401, another session works', async ({
    client,
    assert,
  }) => {
    await createAdmin('session.two')
    const first = await login(client, 'session.two')
    const second = await login(client, 'session.two')

    const logout = await client.post('/api/auth/logout').bearerToken(first.token)
    logout.assertStatus(204)
    ;(await me(client, first.token)).assertStatus(401)
    ;(await me(client, second.token)).assertStatus(200)
    const row = await sessionRow(first.sessionId)
    assert.isNotNull(row.ended_at)
    assert.equal(row.end_reason, 'logout')
    // Logging out twice: the token is already dead.
    ;(await client.post('/api/auth/logout').bearerToken(first.token)).assertStatus(401)
  })

  test('own sessions: listed with the current one marked; one can end another of them', async ({
    client,
    assert,
  }) => {
    await createAdmin('session.three')
    await createAdmin('session.other')
    const laptop = await login(client, 'session.three', 'laptop')
    const phone = await login(client, 'session.three', 'phone')
    const stranger = await login(client, 'session.other', 'stranger')

    const listed = await client.get('/api/auth/sessions').bearerToken(laptop.token)
    listed.assertStatus(200)
    const rows = listed.body().data
    assert.sameMembers(
      rows.map((row: any) => row.id),
      [laptop.sessionId, phone.sessionId]
    )
    assert.sameMembers(Object.keys(rows[0]), [
      'id',
      'current',
      'ip',
      'userAgent',
      'createdAt',
      'lastSeenAt',
      'expiresAt',
    ])
    assert.isTrue(rows.find((row: any) => row.id === laptop.sessionId).current)
    assert.isFalse(rows.find((row: any) => row.id === phone.sessionId).current)

    // Another account's session id is not one's own: 404, and it stays alive.
    const foreign = await client
      .delete(`/api/auth/sessions/${stranger.sessionId}`)
      .bearerToken(laptop.token)
    foreign.assertStatus(404)
    ;(await me(client, stranger.token)).assertStatus(200)

    ;(
      await client.delete(`/api/auth/sessions/${phone.sessionId}`).bearerToken(laptop.token)
    ).assertStatus(204)
    ;(await me(client, phone.token)).assertStatus(401)
    ;(await me(client, laptop.token)).assertStatus(200)
  })

  test('an expired or deleted session is a 401 even with a valid signature', async ({ client }) => {
    await createAdmin('session.four')
    const expired = await login(client, 'session.four')
    const deleted = await login(client, 'session.four')
    await db
      .from('admin_sessions')
      .where('id', expired.sessionId)
      .update({ expires_at: Date.now() - 1 })
    await db.from('admin_sessions').where('id', deleted.sessionId).delete()
    ;(await me(client, expired.token)).assertStatus(401)
    ;(await me(client, deleted.token)).assertStatus(401)
  })

  test('last seen is written at most once a minute', async ({ client, assert }) => {
    await createAdmin('session.five')
    const { token, sessionId } = await login(client, 'session.five')
    await me(client, token)
    const stale = Date.now() - 120_000
    await db.from('admin_sessions').where('id', sessionId).update({ last_seen_at: stale })
    const touched = await countQueries(() => me(client, token))
    assert.lengthOf(touched.queries, 2, 'the guard query and one last-seen update')
    assert.isAbove(Number((await sessionRow(sessionId)).last_seen_at), stale)
    const again = await countQueries(() => me(client, token))
    assert.lengthOf(again.queries, 1)
  })

  test('a password change ends every session of the account; its new token has a new one', async ({
    client,
    assert,
  }) => {
    await createAdmin('session.six')
    const first = await login(client, 'session.six')
    const second = await login(client, 'session.six')
    const changed = await client
      .put('/api/auth/password')
      .bearerToken(first.token)
      .json({ currentPassword: TEST_PASSWORD, newPassword: 'A-new-Passw0rd-123' })
    changed.assertStatus(200)
    for (const old of [first, second]) {
      ;(await me(client, old.token)).assertStatus(401)
      assert.equal((await sessionRow(old.sessionId)).end_reason, 'password_changed')
    }
    const fresh = (await verifyAdminToken(changed.body().data.token))!
    assert.notInclude([first.sessionId, second.sessionId], fresh.sessionId)
    ;(await me(client, changed.body().data.token)).assertStatus(200)
  })
})

test.group('Sessions: online administrators and force logout', (group) => {
  withRealCommits(group)

  test('the online list shows live sessions of every account, not ended or expired ones', async ({
    client,
    assert,
  }) => {
    const { user: viewer } = await userWithPermissions([session.list])
    await createAdmin('online.a')
    const live = await login(client, 'online.a')
    const ended = await login(client, 'online.a')
    await client.post('/api/auth/logout').bearerToken(ended.token)

    const response = await client.get('/api/admin/sessions').loginAs(viewer)
    response.assertStatus(200)
    const ids = response.body().data.map((row: any) => row.id)
    assert.include(ids, live.sessionId)
    assert.notInclude(ids, ended.sessionId)
    const row = response.body().data.find((entry: any) => entry.id === live.sessionId)
    assert.equal(row.account, 'online.a')
    assert.sameMembers(Object.keys(row), [
      'id',
      'userId',
      'account',
      'nickname',
      'ip',
      'userAgent',
      'createdAt',
      'lastSeenAt',
      'expiresAt',
    ])

    const filtered = await client
      .get('/api/admin/sessions')
      .qs({ account: 'online.a' })
      .loginAs(viewer)
    assert.deepEqual(
      filtered.body().data.map((entry: any) => entry.id),
      [live.sessionId]
    )
    ;(
      await client.get('/api/admin/sessions').loginAs(await createAdmin('online.none'))
    ).assertStatus(403)
  })

  test('force logout ends that session only; other sessions of the account keep working', async ({
    client,
    assert,
  }) => {
    const { user: operator } = await userWithPermissions([session.list, session.forceLogout])
    await createAdmin('forced.a')
    const target = await login(client, 'forced.a')
    const other = await login(client, 'forced.a')

    const response = await client
      .delete(`/api/admin/sessions/${target.sessionId}`)
      .loginAs(operator)
    response.assertStatus(204)
    ;(await me(client, target.token)).assertStatus(401)
    ;(await me(client, other.token)).assertStatus(200)
    assert.equal((await sessionRow(target.sessionId)).end_reason, 'forced')
    // Already ended, unknown or malformed: 404.
    for (const id of [target.sessionId, 'x'.repeat(22), 'short']) {
      ;(await client.delete(`/api/admin/sessions/${id}`).loginAs(operator)).assertStatus(404)
    }
  })

  test('disabling an account or resetting its password ends all its sessions', async ({
    client,
    assert,
  }) => {
    const boss = await superAdminUser()
    const disabled = await createAdmin('ended.disabled')
    const reset = await createAdmin('ended.reset')
    const a = await login(client, 'ended.disabled')
    const b = await login(client, 'ended.reset')

    ;(
      await client.put(`/api/admin/users/${disabled.id}`).json({ status: 'disabled' }).loginAs(boss)
    ).assertStatus(200)
    ;(
      await client
        .post(`/api/admin/users/${reset.id}/password-reset`)
        .json({ password: 'Reset-Passw0rd-123' })
        .loginAs(boss)
    ).assertStatus(200)

    assert.equal((await sessionRow(a.sessionId)).end_reason, 'account_disabled')
    assert.equal((await sessionRow(b.sessionId)).end_reason, 'password_changed')
    ;(await me(client, a.token)).assertStatus(401)
    ;(await me(client, b.token)).assertStatus(401)
    const online = await client.get('/api/admin/sessions').loginAs(boss)
    const ids = online.body().data.map((row: any) => row.id)
    assert.notInclude(ids, a.sessionId)
    assert.notInclude(ids, b.sessionId)
    assert.isTrue((await User.findOrFail(disabled.id)).tokenVersion > 0)
  })
})
