import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { isolate } from '#tests/helpers/database'
import { createAdmin, forgeToken, sessionToken } from '#tests/helpers/auth'

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
