import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient, ApiResponse } from '@japa/api-client'
import type User from '#models/user'
import adminAuthConfig from '#config/admin_auth'
import { consume, failureState } from '#auth/limits'
import { limiterStore } from '#config/limiter'
import { ceilingKey, ipKey } from '#auth/login_limiter'
import { withRealCommits } from '#tests/helpers/database'
import { sendFrom } from '#tests/helpers/http_from'
import { TEST_PASSWORD, createAdmin, freshCredential, sessionToken } from '#tests/helpers/auth'
import { passwordStep, requiring2fa } from '#tests/helpers/two_factor'
import { SoftAuthenticator, type Overrides } from '#tests/helpers/passkey_authenticator'

/**
 * Signing in with a passkey alone (docs/front-door.md, "Passkeys"): options with no account named
 * (signed, nothing stored), the assertion names the account; AUTH_PASSKEY_REQUIRED.
 */

const errorCode = (response: ApiResponse) => response.body().errors?.[0]?.code

async function enrol(client: ApiClient, user: User, authenticator = new SoftAuthenticator()) {
  const { token } = await sessionToken(user.id, user.tokenVersion)
  const options = await client
    .post('/api/auth/passkeys/options')
    .bearerToken(token)
    .json({ password: TEST_PASSWORD })
  options.assertStatus(200)
  const response = await client
    .post('/api/auth/passkeys')
    .bearerToken(token)
    .json({ name: 'Laptop', response: authenticator.register(options.body().data) })
  response.assertStatus(201)
  return authenticator
}

const signInOptions = (client: ApiClient) => client.post('/api/auth/login/passkey/options').json({})

/** Options with an empty body, then the assertion without an mfaToken. */
async function signInWith(client: ApiClient, authenticator: SoftAuthenticator, o: Overrides = {}) {
  const options = await signInOptions(client)
  options.assertStatus(200)
  const response = authenticator.assert(options.body().data, o)
  return { response, answer: await client.post('/api/auth/login/passkey').json({ response }) }
}

/** Rows of every application table (the catalogue of the dialect in use). */
async function rowCounts() {
  const tables =
    db.connection().dialect.name === 'postgres'
      ? (await db.rawQuery(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`))
          .rows
      : await db.rawQuery(
          `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
        )
  const counts: Record<string, number> = {}
  for (const { name } of tables) {
    const [{ total }] = await db.from(name).count('* as total')
    counts[name] = Number(total)
  }
  return counts
}

test.group('Passkeys: sign-in with a passkey alone', (group) => {
  withRealCommits(group)

  test('no account, no password, no captcha: a JWT; /me works; logged as passkey_login', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('keyonly')
    const authenticator = await enrol(client, user)
    const options = await signInOptions(client)
    options.assertStatus(200)
    assert.deepEqual(options.body().data.allowCredentials, [])
    assert.equal(options.body().data.userVerification, 'required')
    const answer = await client
      .post('/api/auth/login/passkey')
      .json({ response: authenticator.assert(options.body().data) })
    answer.assertStatus(200)
    assert.properties(answer.body().data, ['token', 'deviceToken'])
    const me = await client.get('/api/auth/me').bearerToken(answer.body().data.token)
    me.assertStatus(200)
    assert.equal(me.body().data.user.account, 'keyonly')
    assert.isNull(me.body().data.pendingRequirement)
    const [log] = await db.from('login_logs').where('user_id', user.id).orderBy('id', 'desc')
    assert.equal(log.outcome, 'passkey_login')
    assert.equal(Number((await db.from('passkeys').where('user_id', user.id).first()).counter), 1)
  })

  test('a replayed assertion is refused, even from an authenticator that always sends 0', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('replayed')
    const authenticator = await enrol(client, user)
    const { response, answer } = await signInWith(client, authenticator, { counter: 0 })
    answer.assertStatus(200)
    const replay = await client.post('/api/auth/login/passkey').json({ response })
    assert.equal(replay.status(), 400)
    assert.equal(errorCode(replay), 'E_PASSKEY_INVALID')
    // A challenge the server did not sign (or another's) is refused too, before any lookup.
    const forged = authenticator.assert(
      { challenge: Buffer.alloc(56, 7).toString('base64url') },
      { counter: 0 }
    )
    const refused = await client.post('/api/auth/login/passkey').json({ response: forged })
    assert.equal(errorCode(refused), 'E_PASSKEY_INVALID')
    // No user verification: refused.
    const { answer: noUv } = await signInWith(client, authenticator, { uv: false })
    assert.equal(errorCode(noUv), 'E_PASSKEY_INVALID')
    // Options fetched from another address: the challenge is bound to that address.
    const elsewhere = await sendFrom('127.0.0.2', 'POST', '/api/auth/login/passkey/options', {
      body: {},
    })
    assert.equal(elsewhere.status, 200)
    const moved = authenticator.assert(elsewhere.body.data, { counter: 0 })
    const movedAnswer = await client.post('/api/auth/login/passkey').json({ response: moved })
    assert.equal(errorCode(movedAnswer), 'E_PASSKEY_INVALID')
    // Each refusal counted against the address and logged.
    assert.equal((await failureState(ipKey('127.0.0.1'))).failures, 4)
    const outcomes = await db.from('login_logs').where('user_id', user.id).select('outcome')
    assert.includeMembers(
      outcomes.map((row) => row.outcome),
      ['passkey_login', 'passkey_failed']
    )
  })

  test('a disabled account is refused as at the password login', async ({ client, assert }) => {
    const user = await createAdmin('switched.off')
    const authenticator = await enrol(client, user)
    await db.from('users').where('id', user.id).update({ status: 'disabled' })
    const sessions = async () => (await db.from('admin_sessions').where('user_id', user.id)).length
    const before = await sessions()
    const { answer } = await signInWith(client, authenticator)
    assert.equal(answer.status(), 401)
    assert.equal(errorCode(answer), 'E_INVALID_CREDENTIALS')
    assert.equal(await sessions(), before, 'no session')
  })

  test('AUTH_REQUIRE_2FA=all is met: no E_2FA_SETUP_REQUIRED', async ({ client, assert }) => {
    const user = await createAdmin('strict')
    const authenticator = await enrol(client, user)
    await requiring2fa('all', async () => {
      const { answer } = await signInWith(client, authenticator)
      answer.assertStatus(200)
      const token = answer.body().data.token
      ;(await client.get('/api/auth/tokens').bearerToken(token)).assertStatus(200)
      const me = await client.get('/api/auth/me').bearerToken(token)
      assert.isNull(me.body().data.pendingRequirement)
    })
  })

  test('the ceiling (account locked) does not stop a passkey sign-in', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('besieged')
    const authenticator = await enrol(client, user)
    for (let i = 0; i < adminAuthConfig.limits.loginAccountCap; i++) {
      await consume(ceilingKey('besieged'))
    }
    const locked = await passwordStep(client, user)
    assert.equal(errorCode(locked), 'E_ACCOUNT_LOCKED')
    const { answer } = await signInWith(client, authenticator)
    answer.assertStatus(200)
    assert.property(answer.body().data, 'token')
  })

  test('options store nothing: 200 requests from one address write no row but its limit; 429', async ({
    client,
    assert,
  }) => {
    const before = await rowCounts()
    const statuses: number[] = []
    for (let i = 0; i < 200; i++) statuses.push((await signInOptions(client)).status())
    const allowed = adminAuthConfig.limits.captchaPerMinute
    assert.equal(statuses.filter((status) => status === 200).length, allowed)
    assert.equal(statuses.filter((status) => status === 429).length, 200 - allowed)
    const last = await signInOptions(client)
    assert.equal(errorCode(last), 'E_TOO_MANY_REQUESTS')
    const after = await rowCounts()
    // The one counter of the address (in the limiter's store), nothing else.
    const grown = Object.keys(after).filter((table) => after[table] !== before[table])
    assert.deepEqual(
      grown.map((table) => [table, after[table] - before[table]]),
      limiterStore === 'database' ? [['rate_limits', 1]] : []
    )
  })
})

test.group('Passkeys: AUTH_PASSKEY_REQUIRED', (group) => {
  withRealCommits(group)

  const requiring = async (value: 'none' | 'super_admin' | 'all', work: () => Promise<void>) => {
    const before = adminAuthConfig.passkeys.required
    adminAuthConfig.passkeys.required = value
    try {
      await work()
    } finally {
      adminAuthConfig.passkeys.required = before
    }
  }

  test('super_admin: an enrolled super admin is refused the password path (after a right password only)', async ({
    client,
    assert,
  }) => {
    const enrolledAdmin = await createAdmin('root.key', { roles: ['super_admin'] })
    const authenticator = await enrol(client, enrolledAdmin)
    const bare = await createAdmin('root.bare', { roles: ['super_admin'] })
    const keyedEditor = await createAdmin('editor.key')
    await enrol(client, keyedEditor)
    await requiring('super_admin', async () => {
      const refused = await passwordStep(client, enrolledAdmin)
      assert.equal(refused.status(), 403)
      assert.equal(errorCode(refused), 'E_PASSKEY_REQUIRED')
      assert.include(refused.body().errors[0].message, 'passkey')
      // A wrong password is the usual 401, counted: the 403 tells nothing about a guess.
      const wrong = await client.post('/api/auth/login').json({
        account: 'root.key',
        password: 'Wrong-Guess-123',
        captchaToken: await freshCredential(),
      })
      assert.equal(wrong.status(), 401)
      assert.equal(
        Number((await db.from('users').where('id', enrolledAdmin.id).first()).failed_logins),
        1
      )
      // No passkey yet: the password signs in; not a super admin: the usual second step.
      const open = await passwordStep(client, bare)
      open.assertStatus(200)
      assert.property(open.body().data, 'token')
      const editor = await passwordStep(client, keyedEditor)
      editor.assertStatus(200)
      assert.isTrue(editor.body().data.mfaRequired)
      // The passkey alone still signs in.
      const { answer } = await signInWith(client, authenticator)
      answer.assertStatus(200)
    })
    const logged = await db.from('login_logs').where('user_id', enrolledAdmin.id).select('outcome')
    assert.includeMembers(
      logged.map((row) => row.outcome),
      ['passkey_required', 'wrong_password', 'passkey_login']
    )
  })
})
