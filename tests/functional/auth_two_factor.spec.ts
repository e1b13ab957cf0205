import { test } from '@japa/runner'
import { runAce } from '#tests/helpers/app_process'
import db from '@adonisjs/lucid/services/db'
import encryption from '@adonisjs/core/services/encryption'
import User from '#models/user'
import { withRealCommits } from '#tests/helpers/database'
import { sendFrom } from '#tests/helpers/http_from'
import env from '#start/env'
import {
  TEST_PASSWORD,
  createAdmin,
  sessionToken,
  superAdminUser,
  userWithPermissions,
} from '#tests/helpers/auth'
import { assertForbidden, assertValidationError } from '#tests/helpers/assertions'
import { assertRateLimitHeaders } from '#tests/helpers/rate_limit'
import {
  enrolled,
  mfaTokenFor,
  passwordStep,
  requiring2fa,
  secondStep,
  totp,
} from '#tests/helpers/two_factor'

const errorCode = (response: { body(): any }) => response.body().errors?.[0]?.code
const me = (client: any, token: string) => client.get('/api/auth/me').bearerToken(token)
const outcomes = async (userId: number) =>
  (await db.from('login_logs').where('user_id', userId).orderBy('id')).map((row) => row.outcome)

/** The second step goes through the limiter, whose store commits on its own connection. */
test.group('Second factor (TOTP)', (group) => {
  withRealCommits(group)

  test('enrolment: setup (password) -> pending, encrypted secret; confirm -> 10 hashed recovery codes; audited', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('enrolee')
    const setup = (password: string) =>
      client.post('/api/auth/2fa/setup').loginAs(user).json({ password })

    assertValidationError(assert, await setup('Not-My-Password-1'), ['password'])
    const first = (await setup(TEST_PASSWORD)).body().data
    const response = await setup(TEST_PASSWORD) // a new setup replaces the pending secret
    response.assertStatus(200)
    const { secret, otpauthUrl, qrCode } = response.body().data
    assert.notEqual(secret, first.secret)
    assert.match(secret, /^[A-Z2-7]{32}$/)
    assert.match(otpauthUrl, new RegExp(`^otpauth://totp/.*enrolee\\?.*secret=${secret}`))
    assert.match(qrCode, /^data:image\/png;base64,/)
    const [stored] = await db.from('two_factor_secrets').where('user_id', user.id)
    assert.notInclude(stored.secret, secret)
    assert.equal(encryption.decrypt(stored.secret, 'totp-secret'), secret)
    assert.isFalse((await User.findOrFail(user.id)).twoFactorEnabled, 'pending until confirmed')

    const confirm = (code: string) =>
      client.post('/api/auth/2fa/confirm').loginAs(user).json({ code })
    assertValidationError(assert, await confirm(totp(first.secret)), ['code'])
    const confirmed = await confirm(totp(secret))
    confirmed.assertStatus(200)
    const { recoveryCodes } = confirmed.body().data
    assert.lengthOf(new Set(recoveryCodes), 10)
    const digests = (await db.from('two_factor_recovery_codes').where('user_id', user.id)).map(
      (row) => row.code_hash
    )
    assert.lengthOf(digests, 10)
    for (const code of recoveryCodes) assert.notInclude(digests, code)

    const refreshed = await User.findOrFail(user.id)
    assert.isTrue(refreshed.twoFactorEnabled)
    const profile = await client.get('/api/auth/me').loginAs(refreshed)
    assert.isTrue(profile.body().data.user.twoFactorEnabled)
    // A confirmed factor is never replaced by a setup: disable it first.
    assert.equal((await setup(TEST_PASSWORD)).status(), 409)
    assert.equal((await confirm(totp(secret, 1))).status(), 409)
    const audited = await db.from('audit_logs').where('target_id', String(user.id)).orderBy('id')
    assert.deepEqual(
      audited.map((row) => [row.permission, JSON.parse(row.changes).twoFactor]),
      [
        ['auth:2fa:setup', ['none', 'pending']],
        ['auth:2fa:setup', ['pending', 'pending']],
        ['auth:2fa:confirm', ['pending', 'enabled']],
      ]
    )
  })

  test('two-step login: the password alone hands out no JWT, session or device token', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('second')
    const { secret } = await enrolled(user)
    const first = await passwordStep(client, user)
    first.assertStatus(200)
    const data = first.body().data
    assert.deepEqual(Object.keys(data).sort(), ['expiresIn', 'methods', 'mfaRequired', 'mfaToken'])
    assert.deepEqual(data.methods, ['totp'])
    assert.equal(data.expiresIn, 300)
    assert.equal((await db.from('admin_sessions').where('user_id', user.id)).length, 0)
    assert.equal((await db.from('device_tokens').where('user_id', user.id)).length, 0)
    const [challenge] = await db.from('mfa_challenges').where('user_id', user.id)
    assert.notEqual(challenge.token_hash, data.mfaToken, 'stored hashed')

    const done = await secondStep(client, { mfaToken: data.mfaToken, code: totp(secret) })
    done.assertStatus(200)
    assert.match(done.body().data.deviceToken, /^[\w-]{43}$/)
    ;(await me(client, done.body().data.token)).assertStatus(200)
    // The token is spent by its first right code.
    const again = await secondStep(client, { mfaToken: data.mfaToken, code: totp(secret, 1) })
    assert.equal(errorCode(again), 'E_MFA_TOKEN_INVALID')
    assert.deepEqual(await outcomes(user.id), ['mfa_required', 'succeeded'])
  })

  test('a code is accepted once (one winner of 3 at once), then a replay or an older one -> 401', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('replayed')
    const { secret } = await enrolled(user)
    const code = totp(secret)
    const tokens = [
      await mfaTokenFor(client, user),
      await mfaTokenFor(client, user),
      await mfaTokenFor(client, user),
    ]
    const racing = await Promise.all(
      tokens.map((mfaToken) => secondStep(client, { mfaToken, code }))
    )
    assert.sameMembers(
      racing.map((response) => response.status()),
      [200, 401, 401]
    )
    for (const stale of [code, totp(secret, -1)]) {
      const replay = await secondStep(client, {
        mfaToken: await mfaTokenFor(client, user),
        code: stale,
      })
      replay.assertStatus(401)
      assert.equal(errorCode(replay), 'E_INVALID_CREDENTIALS')
    }
    // The next step's code (clock drift) still works once.
    const next = { mfaToken: await mfaTokenFor(client, user), code: totp(secret, 1) }
    ;(await secondStep(client, next)).assertStatus(200)
  })

  test('brute force: a token dies after 5 wrong codes, and the account is then blocked (429)', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('guessed')
    const { secret } = await enrolled(user)
    const mfaToken = await mfaTokenFor(client, user)
    const wrong = String((Number(totp(secret)) + 1) % 1_000_000).padStart(6, '0')
    for (let i = 0; i < 5; i++) {
      ;(await secondStep(client, { mfaToken, code: wrong })).assertStatus(401)
    }
    const dead = await secondStep(client, { mfaToken, code: totp(secret) })
    dead.assertStatus(400)
    assert.equal(errorCode(dead), 'E_MFA_TOKEN_INVALID')
    // A fresh token does not buy more guesses: the account's second step is blocked.
    const blocked = await secondStep(client, {
      mfaToken: await mfaTokenFor(client, user),
      code: totp(secret),
    })
    blocked.assertStatus(429)
    assertRateLimitHeaders(assert, blocked.headers())
    assert.include(await outcomes(user.id), 'mfa_failed')
  })

  test('mfaToken {name} -> 400 E_MFA_TOKEN_INVALID')
    .with([
      { name: 'unknown', spoil: async () => 'A'.repeat(43) },
      {
        name: 'expired',
        spoil: async (token: string) => {
          await db.from('mfa_challenges').update({ expires_at: Date.now() - 1 })
          return token
        },
      },
      {
        name: 'after a password change',
        spoil: async (token: string, user: User) => {
          await db.from('users').where('id', user.id).increment('token_version', 1)
          return token
        },
      },
    ])
    .run(async ({ client, assert }, row) => {
      const user = await createAdmin('holder')
      const { secret } = await enrolled(user)
      const mfaToken = await row.spoil(await mfaTokenFor(client, user), user)
      const response = await secondStep(client, { mfaToken, code: totp(secret) })
      response.assertStatus(400)
      assert.equal(errorCode(response), 'E_MFA_TOKEN_INVALID')
      assert.equal((await db.from('admin_sessions').where('user_id', user.id)).length, 0)
    })

  test('guessing mfaTokens costs the address: past its allowance a 429, even for a real token', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('guessed')
    const { secret } = await enrolled(user)
    const from = '127.0.0.53'
    const guess = (mfaToken: string) =>
      sendFrom(from, 'POST', '/api/auth/login/2fa', { body: { mfaToken, code: totp(secret) } })
    const allowance = env.get('LIMIT_LOGIN_FAILURES_PER_IP', 20)
    for (let i = 0; i < allowance; i++)
      assert.equal((await guess(`${i}`.padEnd(43, 'x'))).status, 400)
    assert.equal((await guess(await mfaTokenFor(client, user))).status, 429)
    assert.equal((await db.from('admin_sessions').where('user_id', user.id)).length, 0)
  })

  test('a recovery code signs in once (any case, dashes optional); its reuse is refused', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('recovering')
    const { recoveryCodes } = await enrolled(user)
    const code = recoveryCodes[3]
    const typed = code.toUpperCase().replace(/-/g, '')
    const used = await secondStep(client, {
      mfaToken: await mfaTokenFor(client, user),
      recoveryCode: typed,
    })
    used.assertStatus(200)
    const reused = await secondStep(client, {
      mfaToken: await mfaTokenFor(client, user),
      recoveryCode: code,
    })
    reused.assertStatus(401)
    assert.equal((await db.from('two_factor_recovery_codes').where('user_id', user.id)).length, 9)
    assert.includeMembers(await outcomes(user.id), ['recovery_code_used', 'mfa_failed'])
  })

  test('a device skips the second step only when "remember this device" was chosen there', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('traveller')
    const { secret } = await enrolled(user)
    const plain = await secondStep(client, {
      mfaToken: await mfaTokenFor(client, user),
      code: totp(secret, -1),
    })
    const { deviceToken } = plain.body().data
    // A known device without the choice is still asked.
    const asked = await passwordStep(client, user, { deviceToken })
    assert.isTrue(asked.body().data.mfaRequired)
    const used = totp(secret)
    const remembered = await secondStep(client, {
      mfaToken: asked.body().data.mfaToken,
      code: used,
      deviceToken,
      rememberDevice: true,
    })
    // The device token rotated; "remember" lives on the device, so its successor skips the code.
    const next = remembered.body().data.deviceToken
    assert.notEqual(next, deviceToken)
    const skipped = await passwordStep(client, user, { deviceToken: next })
    skipped.assertStatus(200)
    assert.isString(skipped.body().data.token)
    const latest = skipped.body().data.deviceToken
    assert.isTrue((await passwordStep(client, user)).body().data.mfaRequired, 'a new device asks')
    // Disabling (password + code) forgets the choice: re-enrolled, every device asks again.
    const disable = (code: string) =>
      client.delete('/api/auth/2fa').loginAs(user).json({ password: TEST_PASSWORD, code })
    assertValidationError(assert, await disable(used), ['code']) // used already
    ;(await disable(totp(secret, 1))).assertStatus(204)
    assert.isFalse((await User.findOrFail(user.id)).twoFactorEnabled)
    assert.equal((await db.from('two_factor_secrets').where('user_id', user.id)).length, 0)
    await enrolled(user)
    assert.isTrue(
      (await passwordStep(client, user, { deviceToken: latest })).body().data.mfaRequired
    )
  })

  test(
    'AUTH_REQUIRE_2FA={$self}: an account without a factor gets 403 E_2FA_SETUP_REQUIRED until enrolled'
  )
    .with(['all', 'super_admin'] as const)
    .run(async ({ client, assert }, required) => {
      await requiring2fa(required, async () => {
        const admin = await superAdminUser()
        const { user: plain } = await userWithPermissions(['system:user:list'])
        const blocked = await client.get('/api/admin/users').loginAs(admin)
        blocked.assertStatus(403)
        assert.equal(errorCode(blocked), 'E_2FA_SETUP_REQUIRED')
        const plainList = await client.get('/api/admin/users').loginAs(plain)
        assert.equal(plainList.status(), required === 'all' ? 403 : 200)
        assert.equal(
          (await client.get('/api/auth/me/grantable-menus').loginAs(admin)).status(),
          403
        )
        // /me answers, and says what is pending (the console routes by it).
        const pendingOf = async (user: User) => {
          const answer = await client.get('/api/auth/me').loginAs(user)
          answer.assertStatus(200)
          return answer.body().data.pendingRequirement
        }
        assert.equal(await pendingOf(admin), 'E_2FA_SETUP_REQUIRED')
        assert.equal(await pendingOf(plain), required === 'all' ? 'E_2FA_SETUP_REQUIRED' : null)

        const setup = await client
          .post('/api/auth/2fa/setup')
          .loginAs(admin)
          .json({ password: TEST_PASSWORD })
        setup.assertStatus(200)
        const confirm = await client
          .post('/api/auth/2fa/confirm')
          .loginAs(admin)
          .json({ code: totp(setup.body().data.secret) })
        confirm.assertStatus(200)
        const enrolledAdmin = await User.findOrFail(admin.id)
        ;(await client.get('/api/admin/users').loginAs(enrolledAdmin)).assertStatus(200)
        assert.isNull(await pendingOf(enrolledAdmin))
      })
    })

  test('bad input -> 422 naming {field}, nothing written: {name}')
    .with([
      { name: 'second step without a code', path: 'login/2fa', body: {}, field: 'code' },
      { name: 'a 5-digit code', path: 'login/2fa', body: { code: '12345' }, field: 'code' },
      {
        name: 'a malformed recovery code',
        path: 'login/2fa',
        body: { recoveryCode: '0!' },
        field: 'recoveryCode',
      },
      {
        name: 'a wrong password',
        path: '2fa',
        body: { password: 'Not-My-Password-1' },
        field: 'password',
      },
      {
        name: 'no code',
        path: '2fa',
        body: { password: TEST_PASSWORD, code: undefined },
        field: 'code',
      },
      { name: 'letters', path: '2fa/confirm', body: { code: 'abcdef' }, field: 'code' },
    ])
    .run(async ({ client, assert }, row) => {
      const user = await createAdmin('careless')
      const { secret } = await enrolled(user)
      const body = { code: totp(secret), ...row.body }
      const response =
        row.path === 'login/2fa'
          ? await secondStep(client, { mfaToken: await mfaTokenFor(client, user), ...row.body })
          : row.path === '2fa'
            ? await client.delete('/api/auth/2fa').loginAs(user).json(body)
            : await client.post(`/api/auth/${row.path}`).loginAs(user).json(body)
      assertValidationError(assert, response, [row.field])
      assert.isTrue((await User.findOrFail(user.id)).twoFactorEnabled)
      assert.equal(
        (await db.from('two_factor_recovery_codes').where('user_id', user.id)).length,
        10
      )
      assert.equal(
        (await db.from('admin_sessions').where('user_id', user.id)).length,
        row.path === 'login/2fa' ? 0 : 1
      )
    })

  test('admin reset of a second factor: {name}')
    .with([
      { name: 'a super admin resets it; sessions end', caller: 'super', target: 'plain', ok: true },
      { name: 'the code over a smaller account', caller: 'code', target: 'plain', ok: true },
      { name: 'refused over a super admin', caller: 'code', target: 'super', ok: false },
      { name: 'refused over a larger account', caller: 'code', target: 'larger', ok: false },
      { name: 'refused without the code', caller: 'none', target: 'plain', ok: false },
      { name: 'refused on oneself', caller: 'super', target: 'self', ok: false },
    ] as const)
    .run(async ({ client, assert }, row) => {
      const resetCode = 'system:user:reset-2fa'
      const caller =
        row.caller === 'super'
          ? await superAdminUser()
          : (await userWithPermissions(row.caller === 'code' ? [resetCode] : ['system:user:list']))
              .user
      const target =
        row.target === 'self'
          ? caller
          : row.target === 'super'
            ? await superAdminUser()
            : (
                await userWithPermissions(
                  row.target === 'larger' ? [resetCode, 'system:role:list'] : []
                )
              ).user
      const { secret } = await enrolled(target)
      const { token } = (
        await secondStep(client, {
          mfaToken: await mfaTokenFor(client, target),
          code: totp(secret),
          rememberDevice: true,
        })
      ).body().data

      const response = await client.delete(`/api/admin/users/${target.id}/2fa`).loginAs(caller)
      const after = await User.findOrFail(target.id)
      if (row.ok) {
        response.assertStatus(204)
        assert.isFalse(after.twoFactorEnabled)
        assert.equal(
          (await db.from('two_factor_recovery_codes').where('user_id', target.id)).length,
          0
        )
        assert.equal(
          (await db.from('device_tokens').where({ user_id: target.id, remembered: true })).length,
          0
        )
        ;(await me(client, token)).assertStatus(401)
        const [audited] = await db.from('audit_logs').where('permission', resetCode)
        assert.deepEqual(JSON.parse(audited.changes).twoFactor, ['enabled', 'none'])
      } else {
        assertForbidden(assert, response)
        assert.isTrue(after.twoFactorEnabled)
        assert.equal(
          (await db.from('two_factor_recovery_codes').where('user_id', target.id)).length,
          10
        )
        const profile = await me(client, token)
        profile.assertStatus(200)
        assert.isTrue(profile.body().data.user.twoFactorEnabled)
      }
    })

  test('node ace user:reset-2fa <account>: the way back for a sole super admin, audited', async ({
    client,
    assert,
  }) => {
    const admin = await superAdminUser({ account: 'sole.root' })
    await enrolled(admin)
    const { token } = await sessionToken(admin.id)
    const run = runAce(['user:reset-2fa', 'SOLE.root'])
    assert.equal(run.status, 0, run.output)
    assert.isFalse((await User.findOrFail(admin.id)).twoFactorEnabled)
    ;(await me(client, token)).assertStatus(401)
    const [row] = await db.from('audit_logs').where('actor', 'command:user:reset-2fa')
    assert.deepEqual(JSON.parse(row.changes).twoFactor, ['enabled', 'none'])
  })
})
