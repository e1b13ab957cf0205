import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import { verifyAdminToken } from '#auth/jwt'
import { expireCount } from '#auth/limits'
import { accountKey } from '#auth/login_limiter'
import { withRealCommits } from '#tests/helpers/database'
import {
  ADMIN_ACCOUNT,
  ADMIN_PASSWORD,
  TEST_PASSWORD,
  countQueries,
  createAdmin,
  freshCredential,
  loginWith,
} from '#tests/helpers/auth'
import { assertRateLimitHeaders } from '#tests/helpers/rate_limit'

const tokensLeft = async () => {
  const [row] = await db.from('captcha_tokens').count('* as total')
  return Number(row.total)
}

/** The limiter's database store commits through its own connection: real commits here. */
test.group('Login', (group) => {
  withRealCommits(group)

  test('account, password and a fresh credential give a JWT carrying only sub, tokenVersion and its session', async ({
    client,
    assert,
    db: database,
  }) => {
    const captchaToken = await freshCredential()
    const response = await client
      .post('/api/auth/login')
      .json({ account: ADMIN_ACCOUNT, password: ADMIN_PASSWORD, captchaToken })

    response.assertStatus(200)
    const { data } = response.body()
    assert.deepEqual(Object.keys(data).sort(), ['deviceToken', 'expiresIn', 'token', 'tokenType'])
    assert.equal(data.tokenType, 'Bearer')
    assert.match(data.deviceToken, /^[\w-]{43}$/)
    await database.assertHas(
      'device_tokens',
      { user_id: (await User.findByOrFail('account', ADMIN_ACCOUNT)).id },
      1
    )
    assert.isAbove(data.expiresIn, 0)
    assert.equal(response.header('cache-control'), 'no-store')

    const admin = await User.findByOrFail('account', ADMIN_ACCOUNT)
    const payload = JSON.parse(Buffer.from(data.token.split('.')[1], 'base64url').toString())
    assert.deepEqual(await verifyAdminToken(data.token), {
      userId: admin.id,
      tokenVersion: 0,
      sessionId: payload.jti,
    })
    assert.sameMembers(Object.keys(payload), [
      'sub',
      'tokenVersion',
      'jti',
      'iss',
      'aud',
      'iat',
      'exp',
    ])
    await database.assertHas('admin_sessions', { id: payload.jti, user_id: admin.id }, 1)
    assert.isNotNull(admin.lastLoginAt)
    assert.equal(await tokensLeft(), 0, 'the credential is consumed')

    const me = await client.get('/api/auth/me').bearerToken(data.token)
    me.assertStatus(200)
  })

  test('a missing, unknown, reused or expired credential is a 400 before any password check', async ({
    client,
    assert,
  }) => {
    const expected = {
      errors: [
        {
          code: 'E_CAPTCHA_TOKEN_INVALID',
          message: 'The captcha credential is missing, expired or already used',
        },
      ],
    }

    // Missing and unknown: even with a wrong password the answer is about the credential.
    const missing = await client
      .post('/api/auth/login')
      .json({ account: ADMIN_ACCOUNT, password: 'wrong' })
    missing.assertStatus(400)
    assert.deepEqual(missing.body(), expected)
    const unknown = await client
      .post('/api/auth/login')
      .json({ account: ADMIN_ACCOUNT, password: 'wrong', captchaToken: 'not-a-real-token' })
    unknown.assertStatus(400)
    assert.deepEqual(unknown.body(), expected)

    // Reused: the first login spends it, whatever the password.
    const captchaToken = await freshCredential()
    const first = await client
      .post('/api/auth/login')
      .json({ account: ADMIN_ACCOUNT, password: 'wrong-password', captchaToken })
    first.assertStatus(401)
    const second = await client
      .post('/api/auth/login')
      .json({ account: ADMIN_ACCOUNT, password: ADMIN_PASSWORD, captchaToken })
    second.assertStatus(400)
    assert.deepEqual(second.body(), expected)

    // Expired.
    const expired = await freshCredential()
    await db.from('captcha_tokens').update({ expires_at: Date.now() - 1000 })
    const late = await client
      .post('/api/auth/login')
      .json({ account: ADMIN_ACCOUNT, password: ADMIN_PASSWORD, captchaToken: expired })
    late.assertStatus(400)
    assert.deepEqual(late.body(), expected)

    const admin = await User.findByOrFail('account', ADMIN_ACCOUNT)
    assert.isNull(admin.lastLoginAt, 'no login succeeded')
  })

  test('unknown account, wrong password and disabled account give one identical 401 body', async ({
    client,
    assert,
  }) => {
    await createAdmin('disabled.admin', { status: 'disabled' })
    const attempt = async (account: string, password: string) =>
      loginWith(client, account, password)

    const unknown = await attempt('nobody.here', TEST_PASSWORD)
    const wrong = await attempt(ADMIN_ACCOUNT, 'Not-The-Password-1')
    const disabled = await attempt('disabled.admin', TEST_PASSWORD)

    const expected = {
      errors: [{ code: 'E_INVALID_CREDENTIALS', message: 'Invalid account or password' }],
    }
    for (const response of [unknown, wrong, disabled]) {
      response.assertStatus(401)
      assert.deepEqual(response.body(), expected)
    }
    assert.isNull((await User.findByOrFail('account', 'disabled.admin')).lastLoginAt)
  })

  test('failed logins for one account end in a 429 with Retry-After that costs no credential', async ({
    client,
    assert,
  }) => {
    await createAdmin('target.admin')
    for (let i = 0; i < 5; i++) {
      const response = await loginWith(client, 'target.admin', `Wrong-Guess-${i}`)
      response.assertStatus(401)
    }
    // Blocked now, even with the right password; the credential is left untouched.
    const captchaToken = await freshCredential()
    const blocked = await client
      .post('/api/auth/login')
      .json({ account: 'TARGET.admin', password: TEST_PASSWORD, captchaToken })
    blocked.assertStatus(429)
    assert.deepEqual(blocked.body(), {
      errors: [{ code: 'E_TOO_MANY_REQUESTS', message: 'Too many requests, try again later' }],
    })
    assert.isAtLeast(Number(blocked.header('retry-after')), 60)
    assertRateLimitHeaders(assert, blocked.headers())
    assert.equal(await tokensLeft(), 1, 'a refused login never reaches the credential')

    // Once this process has seen the block, a refusal costs no query at all.
    const { result: again, queries } = await countQueries(() =>
      client
        .post('/api/auth/login')
        .json({ account: 'target.admin', password: TEST_PASSWORD, captchaToken })
    )
    again.assertStatus(429)
    assertRateLimitHeaders(assert, again.headers())
    assert.lengthOf(queries, 0)

    // Other accounts from the same IP are not blocked yet.
    const other = await loginWith(client, ADMIN_ACCOUNT, ADMIN_PASSWORD)
    other.assertStatus(200)
  })

  test('blocks grow: the second block of an account lasts longer than the first', async ({
    client,
    assert,
  }) => {
    await createAdmin('target.admin')
    const failFiveTimes = async () => {
      for (let i = 0; i < 5; i++) {
        await loginWith(client, 'target.admin', 'Wrong-Guess-0')
      }
    }
    const retryAfter = async () => {
      const response = await loginWith(client, 'target.admin')
      response.assertStatus(429)
      assertRateLimitHeaders(assert, response.headers())
      return Number(response.header('retry-after'))
    }
    await failFiveTimes()
    const firstBlock = await retryAfter()
    // Let the first block run out (the failure counter goes with it), then fail again.
    await expireCount(accountKey('target.admin'))
    await failFiveTimes()
    const secondBlock = await retryAfter()
    assert.isAbove(secondBlock, firstBlock * 1.5)
  })

  test('a success resets the failure count of the account', async ({ client }) => {
    await createAdmin('target.admin')
    const login = async (password: string) => loginWith(client, 'target.admin', password)
    for (let i = 0; i < 4; i++) (await login('Wrong-Guess-1')).assertStatus(401)
    ;(await login(TEST_PASSWORD)).assertStatus(200)
    for (let i = 0; i < 4; i++) (await login('Wrong-Guess-2')).assertStatus(401)
    ;(await login(TEST_PASSWORD)).assertStatus(200)
  })

  test('too many failures from one IP block that IP for every account', async ({
    client,
    assert,
  }) => {
    for (let i = 0; i < 20; i++) {
      const response = await loginWith(client, `someone-${i}`, 'Wrong-Guess-1')
      response.assertStatus(401)
    }
    const blocked = await loginWith(client, ADMIN_ACCOUNT, ADMIN_PASSWORD)
    blocked.assertStatus(429)
    assertRateLimitHeaders(assert, blocked.headers())
  })

  test('the account is found whatever its case, as it is unique whatever its case', async ({
    client,
  }) => {
    await createAdmin('mixed.Case')
    const login = await loginWith(client, 'MIXED.case')
    login.assertStatus(200)
  })

  test('request shape errors are 422 with one entry per field', async ({ client, assert }) => {
    const response = await client.post('/api/auth/login').json({ account: '', password: 12 })
    response.assertStatus(422)
    const fields = response.body().errors.map((error: { field: string }) => error.field)
    assert.sameMembers(fields, ['account', 'password'])
    for (const error of response.body().errors) assert.equal(error.code, 'E_VALIDATION_ERROR')
  })
})

/** Concurrent requests race for real: real commits, not one shared transaction. */
test.group('Login: concurrent logins', (group) => {
  withRealCommits(group)

  test('20 concurrent logins with one credential give exactly one token', async ({
    client,
    assert,
  }) => {
    const captchaToken = await freshCredential()
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        client
          .post('/api/auth/login')
          .json({ account: ADMIN_ACCOUNT, password: ADMIN_PASSWORD, captchaToken })
      )
    )
    const statuses = responses.map((response) => response.status())
    assert.equal(statuses.filter((status) => status === 200).length, 1)
    assert.equal(statuses.filter((status) => status === 400).length, 19)
    assert.equal(await tokensLeft(), 0)
  })
})
