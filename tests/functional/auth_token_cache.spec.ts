import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { isolate } from '#tests/helpers/database'
import { DateTime } from 'luxon'
import User from '#models/user'
import adminAuthConfig from '#config/admin_auth'
import CurrentUserTransformer from '#transformers/auth/current_user_transformer'
import { createAdmin, forgeToken, sessionToken } from '#tests/helpers/auth'
import { requiring2fa } from '#tests/helpers/two_factor'

// verifyAdminToken() keeps verified tokens (app/auth/jwt.ts): these tests warm it first, then
// prove that nothing a token's owner or an administrator can revoke outlives the next request.
test.group('JWT guard: revocation with the verified-token cache warm', (group) => {
  isolate(group)

  const me = (client: any, token: string) =>
    client.get('/api/auth/me').header('authorization', `Bearer ${token}`)

  test('logout: the same token is refused on the very next request', async ({ client }) => {
    const user = await createAdmin('cache-logout')
    const { token } = await sessionToken(user.id)
    ;(await me(client, token)).assertStatus(200)
    ;(await me(client, token)).assertStatus(200)
    ;(
      await client.post('/api/auth/logout').header('authorization', `Bearer ${token}`)
    ).assertStatus(204)
    ;(await me(client, token)).assertStatus(401)
  })

  test('a disabled account, a bumped tokenVersion, a deleted session row: 401 next', async ({
    client,
  }) => {
    for (const revoke of [
      (id: number) => db.from('users').where('id', id).update({ status: 'disabled' }),
      (id: number) => db.from('users').where('id', id).increment('token_version', 1),
      (id: number) => db.from('admin_sessions').where('user_id', id).delete(),
    ]) {
      const user = await createAdmin(`cache-${Math.random().toString(36).slice(2, 8)}`)
      const { token } = await sessionToken(user.id)
      ;(await me(client, token)).assertStatus(200)
      await revoke(user.id)
      ;(await me(client, token)).assertStatus(401)
    }
  })

  test('a cached token is refused once its exp (plus 5 s tolerance) has passed', async ({
    client,
  }) => {
    const user = await createAdmin('cache-expiry')
    const { token: real } = await sessionToken(user.id)
    const [, payload] = real.split('.')
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString())
    const now = Math.floor(Date.now() / 1000)
    // The real session and claims, one second of lifetime.
    const token = await forgeToken({ ...claims, iat: now, exp: now + 1 })
    ;(await me(client, token)).assertStatus(200)
    await new Promise((resolve) => setTimeout(resolve, 6500))
    ;(await me(client, token)).assertStatus(401)
  }).timeout(15_000)
})

// The guard decides on an account state kept per row (app/auth/account_state.ts) and /me reuses
// its bytes per (state, snapshot, pending requirement): every change of the row, made behind
// the app's back with raw SQL, must show on the very next request, as a fresh model shows it.
test.group('JWT guard: account state and /me bytes reused, never stale', (group) => {
  isolate(group)

  const meData = async (client: any, token: string) => {
    const response = await client.get('/api/auth/me').header('authorization', `Bearer ${token}`)
    response.assertStatus(200)
    return response.body().data
  }
  const meUser = async (client: any, token: string) => (await meData(client, token)).user
  // A date as this dialect's columns take it (what Lucid writes).
  const stamp = (date: DateTime) => date.toFormat(db.connection().dialect.dateTimeFormat)
  const fresh = async (id: number) =>
    JSON.parse(JSON.stringify(new CurrentUserTransformer(await User.findOrFail(id)).toObject()))

  test('each column /me shows, changed with raw SQL, is in the next body', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('memo-fields')
    const { token } = await sessionToken(user.id)
    const past = stamp(DateTime.now().minus({ days: 3 }))
    const changes: Record<string, unknown>[] = [
      { nickname: 'renamed' },
      { email: 'memo@example.test' },
      { avatar_etag: 'abc123' },
      { last_login_at: past },
      { two_factor_confirmed_at: past },
      { created_at: past },
      { password_changed_at: past },
      { password_change_required: true },
    ]
    for (const change of changes) {
      assert.deepEqual(await meUser(client, token), await fresh(user.id))
      await db.from('users').where('id', user.id).update(change)
      assert.deepEqual(await meUser(client, token), await fresh(user.id), JSON.stringify(change))
    }
  })

  test('the password max age (a runtime setting) and the clock move passwordChangeRequired', async ({
    client,
    assert,
  }) => {
    const before = adminAuthConfig.passwords.maxAgeDays
    try {
      adminAuthConfig.passwords.maxAgeDays = 0
      const user = await createAdmin('memo-expiry')
      const { token } = await sessionToken(user.id)
      // Set 30 days minus 2 s ago: the password expires 2 s from now at a 30-day max age.
      const changedAt = DateTime.now().minus({ days: 30 }).plus({ seconds: 2 })
      await db
        .from('users')
        .where('id', user.id)
        .update({ password_changed_at: stamp(changedAt) })
      const first = await meUser(client, token)
      assert.isNull(first.passwordExpiresAt)
      adminAuthConfig.passwords.maxAgeDays = 30
      const second = await meUser(client, token)
      assert.isNotNull(second.passwordExpiresAt)
      assert.isFalse(second.passwordChangeRequired)
      await new Promise((resolve) => setTimeout(resolve, 2500))
      const third = await meUser(client, token)
      assert.isTrue(third.passwordChangeRequired)
      // And the held account is held by the guard too (the state's clock check).
      const users = await client.get('/api/admin/users').header('authorization', `Bearer ${token}`)
      users.assertStatus(403)
      assert.equal(users.body().errors?.[0]?.code, 'E_PASSWORD_CHANGE_REQUIRED')
    } finally {
      adminAuthConfig.passwords.maxAgeDays = before
    }
  }).timeout(15_000)

  test('AUTH_REQUIRE_2FA (a runtime setting) and the factor move pendingRequirement', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('memo-pending')
    const { token } = await sessionToken(user.id)
    const pending = async () => (await meData(client, token)).pendingRequirement
    await requiring2fa('none', async () => assert.isNull(await pending()))
    await requiring2fa('all', async () => {
      assert.equal(await pending(), 'E_2FA_SETUP_REQUIRED')
      await db
        .from('users')
        .where('id', user.id)
        .update({ two_factor_confirmed_at: stamp(DateTime.now()) })
      assert.isNull(await pending())
      await db.from('users').where('id', user.id).update({ password_change_required: true })
      assert.equal(await pending(), 'E_PASSWORD_CHANGE_REQUIRED')
    })
  })
})
