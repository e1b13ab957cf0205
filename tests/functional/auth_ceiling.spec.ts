import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import adminAuthConfig from '#config/admin_auth'
import { issueCredential } from '#captcha/challenge_store'
import { hashGate } from '#core/cpu_gates'
import { consume, countFailure } from '#auth/limits'
import { ceilingKey, ipKey } from '#auth/login_limiter'
import { withRealCommits } from '#tests/helpers/database'
import { type Reply, sendFrom } from '#tests/helpers/http_from'
import { runAce } from '#tests/helpers/app_process'
import { TEST_PASSWORD, createAdmin, freshCredential } from '#tests/helpers/auth'
import { enrolled, totp } from '#tests/helpers/two_factor'

/**
 * The ceiling on password guessing and the owner's keys (docs/front-door.md, "The ceiling"), from
 * the attacker's side: whatever an attacker pays and from however many addresses, the account's
 * password is checked at most LOGIN_ACCOUNT_CAP times in a row; the owner's device passes.
 */
const CAP = adminAuthConfig.limits.loginAccountCap
const WRONG = 'Wrong-Guess-123'

const send = (from: string, method: string, path: string, body?: unknown, bearer?: string) =>
  sendFrom(from, method, path, {
    body,
    headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
  })

/** A credential as the proof of work of `level` earns it for address `from`. */
const credential = (from: string, level = 0) =>
  level === 0 ? freshCredential(from) : issueCredential(120, from, { level, account: null })

const login = async (from: string, account: string, password: string, extra = {}, level = 0) =>
  send(from, 'POST', '/api/auth/login', {
    account,
    password,
    captchaToken: await credential(from, level),
    ...extra,
  })

/** The password checks that failed for the account (one per argon2id run on a wrong password). */
const failedChecks = async (userId: number) =>
  Number((await db.from('users').where('id', userId).select('failed_logins').first()).failed_logins)

const code = (reply: Reply) => reply.body?.errors?.[0]?.code

test.group('The ceiling', (group) => {
  withRealCommits(group)

  test('100 addresses paying level 2: at most LOGIN_ACCOUNT_CAP hashes; the owner device signs in', async ({
    assert,
  }) => {
    const owner = await createAdmin('besieged')
    const first = await login('127.0.0.200', 'besieged', TEST_PASSWORD)
    assert.equal(first.status, 200, JSON.stringify(first.body))
    let deviceToken = first.body.data.deviceToken as string

    // 100 addresses, 2 level-2 attempts each (under the 20-per-address limit), 20 at a time.
    const addresses = Array.from({ length: 100 }, (_, i) => `127.0.1.${i + 1}`)
    const attempts = [...addresses, ...addresses]
    const statuses: number[] = []
    for (let i = 0; i < attempts.length; i += 20) {
      const wave = attempts.slice(i, i + 20)
      const replies = await Promise.all(wave.map((from) => login(from, 'besieged', WRONG, {}, 2)))
      statuses.push(...replies.map((reply) => reply.status))
      for (const reply of replies) {
        if (reply.status === 429) {
          assert.equal(code(reply), 'E_ACCOUNT_LOCKED')
          assert.isAbove(Number(reply.headers['retry-after']), 0)
        }
      }
    }
    assert.equal(statuses.filter((status) => status === 401).length, CAP, String(statuses))
    assert.equal(statuses.filter((status) => status === 429).length, attempts.length - CAP)
    assert.equal(await failedChecks(owner.id), CAP, 'hashes run for the account')

    // Locked: the right password from a new browser, even at level 3, is refused before any
    // hash and without spending its credential.
    const captchaToken = await credential('127.0.0.201', 3)
    const newBrowser = await send('127.0.0.201', 'POST', '/api/auth/login', {
      account: 'besieged',
      password: TEST_PASSWORD,
      captchaToken,
    })
    assert.equal(newBrowser.status, 429)
    assert.equal(code(newBrowser), 'E_ACCOUNT_LOCKED')
    assert.equal(await failedChecks(owner.id), CAP)
    assert.lengthOf(await db.from('captcha_tokens').where('client_ip', '127.0.0.201'), 1)

    // Meanwhile the owner's device signs in, while the attack goes on.
    const [ownerReply, ...attack] = await Promise.all([
      login('127.0.0.200', 'besieged', TEST_PASSWORD, { deviceToken }),
      ...addresses.slice(0, 10).map((from) => login(from, 'besieged', WRONG, {}, 2)),
    ])
    assert.equal(ownerReply.status, 200, JSON.stringify(ownerReply.body))
    deviceToken = ownerReply.body.data.deviceToken
    // The owner's sign-in restarts the consecutive count (NIST's "consecutive"): the attack goes
    // on from zero, at most CAP again.
    assert.isAtMost(attack.filter((reply) => reply.status === 401).length, 10)
  })

  test('a locked account: user:unlock (another process) lets a new browser in', async ({
    assert,
  }) => {
    await createAdmin('besieged')
    // Locked as the test above locks it (its hashes are that test's point, not this one's).
    for (let i = 0; i < CAP; i++) await consume(ceilingKey('besieged'))
    const locked = await login('127.0.0.202', 'besieged', TEST_PASSWORD, {}, 2)
    assert.equal(code(locked), 'E_ACCOUNT_LOCKED')
    const run = runAce(['user:unlock', 'besieged'])
    assert.equal(run.status, 0, run.output)
    await new Promise((resolve) => setTimeout(resolve, 2100)) // this process's cached block
    const unlocked = await login('127.0.0.202', 'besieged', TEST_PASSWORD)
    assert.equal(unlocked.status, 200, JSON.stringify(unlocked.body))
  })

  test('/me shows the previous sign-in and the failed checks since', async ({ assert }) => {
    const user = await createAdmin('watcher')
    const first = await login('127.0.0.5', 'watcher', TEST_PASSWORD)
    const me = async (token: string) =>
      (await send('127.0.0.5', 'GET', '/api/auth/me', undefined, token)).body.data.user
    const before = await me(first.body.data.token)
    assert.isNull(before.lastSignIn)
    assert.equal(before.failedSinceLastSignIn, 0)
    for (const from of ['127.0.0.6', '127.0.0.7', '127.0.0.8']) await login(from, 'watcher', WRONG)
    const second = await login('127.0.0.9', 'watcher', TEST_PASSWORD)
    const after = await me(second.body.data.token)
    assert.equal(after.lastSignIn.ip, '127.0.0.5')
    assert.isString(after.lastSignIn.at)
    assert.equal(after.failedSinceLastSignIn, 3)
    // Failures during the session are added; the next sign-in starts afresh.
    await login('127.0.0.6', 'watcher', WRONG)
    assert.equal((await me(second.body.data.token)).failedSinceLastSignIn, 4)
    const third = await login('127.0.0.9', 'watcher', TEST_PASSWORD)
    const last = await me(third.body.data.token)
    assert.equal(last.lastSignIn.ip, '127.0.0.9')
    assert.equal(last.failedSinceLastSignIn, 1)
    assert.equal((await db.from('users').where('id', user.id).first()).failed_logins, 0)
  })
})

test.group("Owner's keys: device tokens", (group) => {
  withRealCommits(group)

  test('a device token rotates at each sign-in; a superseded one presented again revokes every device', async ({
    assert,
  }) => {
    const user = await createAdmin('rotator')
    const a = (await login('127.0.0.3', 'rotator', TEST_PASSWORD)).body.data
    const b = (await login('127.0.0.3', 'rotator', TEST_PASSWORD, { deviceToken: a.deviceToken }))
      .body.data
    assert.notEqual(b.deviceToken, a.deviceToken)
    assert.lengthOf(await db.from('device_tokens').where('user_id', user.id), 1, 'same device')
    const c = (await login('127.0.0.3', 'rotator', TEST_PASSWORD, { deviceToken: b.deviceToken }))
      .body.data
    // A second device of the owner, elsewhere.
    const other = (await login('127.0.0.4', 'rotator', TEST_PASSWORD)).body.data
    assert.lengthOf(await db.from('device_tokens').where('user_id', user.id), 2)

    // The thief presents the copy it stole (b): before any hash, 401, every device revoked, the
    // sessions they signed in ended, the reuse in the login log.
    const reused = await login('127.0.0.66', 'rotator', WRONG, { deviceToken: b.deviceToken })
    assert.equal(reused.status, 401)
    assert.equal(code(reused), 'E_DEVICE_TOKEN_REUSED')
    assert.equal(await failedChecks(user.id), 0, 'no password was checked')
    assert.lengthOf(await db.from('device_tokens').where('user_id', user.id), 0)
    for (const session of [c, other]) {
      assert.equal(
        (await send('127.0.0.3', 'GET', '/api/auth/me', undefined, session.token)).status,
        401
      )
    }
    const logged = await db
      .from('login_logs')
      .where({ user_id: user.id, outcome: 'device_token_reused' })
      .first()
    assert.equal(logged.ip, '127.0.0.66')
    // The current token is gone too: a sign-in with it is a new browser's (a new token).
    const again = await login('127.0.0.3', 'rotator', TEST_PASSWORD, { deviceToken: c.deviceToken })
    assert.equal(again.status, 200)
    assert.notEqual(again.body.data.deviceToken, c.deviceToken)
  })

  test('own devices listed and revocable; logout can forget the device; a remembered second factor dies with it', async ({
    assert,
  }) => {
    const user = await createAdmin('keeper')
    const stranger = await createAdmin('stranger')
    const theirs = (await login('127.0.0.8', 'stranger', TEST_PASSWORD)).body.data
    const laptop = (await login('127.0.0.3', 'keeper', TEST_PASSWORD)).body.data
    const phone = (await login('127.0.0.4', 'keeper', TEST_PASSWORD)).body.data

    const list = await send('127.0.0.3', 'GET', '/api/auth/devices', undefined, laptop.token)
    assert.equal(list.status, 200)
    assert.lengthOf(list.body.data, 2)
    const current = list.body.data.find((device: any) => device.current)
    assert.equal(current.ip, '127.0.0.3')
    assert.isFalse(current.remembersSecondFactor)
    assert.notProperty(current, 'tokenHash')
    const phoneId = list.body.data.find((device: any) => !device.current).id

    // Another account's device, or a malformed id: 404, nothing changed.
    const [foreign] = await db.from('device_tokens').where('user_id', stranger.id).select('id')
    for (const id of [foreign.id, 'not-a-device-id!', 'x'.repeat(16)]) {
      const refused = await send(
        '127.0.0.3',
        'DELETE',
        `/api/auth/devices/${id}`,
        undefined,
        laptop.token
      )
      assert.equal(refused.status, 404, id)
      assert.equal(code(refused), 'E_NOT_FOUND')
    }
    assert.lengthOf(await db.from('device_tokens').whereIn('user_id', [user.id, stranger.id]), 3)
    assert.equal(
      (await send('127.0.0.8', 'GET', '/api/auth/me', undefined, theirs.token)).status,
      200
    )

    // Revoking the phone: its token is a stranger's now, and its session ended.
    const revoked = await send(
      '127.0.0.3',
      'DELETE',
      `/api/auth/devices/${phoneId}`,
      undefined,
      laptop.token
    )
    assert.equal(revoked.status, 204)
    assert.equal(
      (await send('127.0.0.4', 'GET', '/api/auth/me', undefined, phone.token)).status,
      401
    )
    assert.equal(
      (await send('127.0.0.3', 'GET', '/api/auth/me', undefined, laptop.token)).status,
      200
    )

    // "Remember this device" at a second step lives on the device token ...
    const { secret } = await enrolled(user)
    const step = await login('127.0.0.3', 'keeper', TEST_PASSWORD, {
      deviceToken: laptop.deviceToken,
    })
    assert.isTrue(step.body.data.mfaRequired)
    const done = await send('127.0.0.3', 'POST', '/api/auth/login/2fa', {
      mfaToken: step.body.data.mfaToken,
      code: totp(secret),
      deviceToken: laptop.deviceToken,
      rememberDevice: true,
    })
    assert.equal(done.status, 200, JSON.stringify(done.body))
    const remembered = done.body.data
    const skipped = await login('127.0.0.3', 'keeper', TEST_PASSWORD, {
      deviceToken: remembered.deviceToken,
    })
    assert.isString(skipped.body.data.token, 'the remembered device skips the code')

    // ... and dies with it: logout forgetting the device.
    const logout = await send(
      '127.0.0.3',
      'POST',
      '/api/auth/logout',
      { forgetDevice: true },
      skipped.body.data.token
    )
    assert.equal(logout.status, 204)
    assert.lengthOf(await db.from('device_tokens').where('user_id', user.id), 0)
    const asked = await login('127.0.0.3', 'keeper', TEST_PASSWORD, {
      deviceToken: skipped.body.data.deviceToken,
    })
    assert.isTrue(asked.body.data.mfaRequired, 'a forgotten device is asked for the code again')
    // A plain logout keeps the device.
    const plain = (await login('127.0.0.8', 'stranger', TEST_PASSWORD)).body.data
    assert.equal((await send('127.0.0.8', 'POST', '/api/auth/logout', {}, plain.token)).status, 204)
    assert.lengthOf(await db.from('device_tokens').where('user_id', stranger.id), 2)
  })

  test('foreign, expired and malformed device tokens: refused or ignored, nothing changed', async ({
    assert,
  }) => {
    await createAdmin('alpha')
    const beta = await createAdmin('beta')
    const alpha = (await login('127.0.0.3', 'alpha', TEST_PASSWORD)).body.data
    const betaDevice = (await login('127.0.0.4', 'beta', TEST_PASSWORD)).body.data.deviceToken
    const rows = async () =>
      db.from('device_tokens').orderBy('id').select('id', 'token_hash', 'last_used_at')
    const before = await rows()

    // Another account's token: ignored (a new browser of beta's would be counted as anonymous).
    const foreign = await login('127.0.0.5', 'beta', WRONG, { deviceToken: alpha.deviceToken })
    assert.equal(foreign.status, 401)
    assert.equal(code(foreign), 'E_INVALID_CREDENTIALS')
    // Expired: the same.
    await db
      .from('device_tokens')
      .where('user_id', beta.id)
      .update({ expires_at: Date.now() - 1 })
    const expired = await login('127.0.0.4', 'beta', WRONG, { deviceToken: betaDevice })
    assert.equal(code(expired), 'E_INVALID_CREDENTIALS')
    await db
      .from('device_tokens')
      .where('user_id', beta.id)
      .update({ expires_at: Date.now() + 86_400_000 })
    // Malformed: 422 on the field, before anything.
    const malformed = await login('127.0.0.4', 'beta', TEST_PASSWORD, {
      deviceToken: 'x'.repeat(129),
    })
    assert.equal(malformed.status, 422)
    assert.equal(malformed.body.errors[0].field, 'deviceToken')
    const badLogout = await send(
      '127.0.0.3',
      'POST',
      '/api/auth/logout',
      { forgetDevice: 'yes' },
      alpha.token
    )
    assert.equal(badLogout.status, 422)
    assert.deepEqual(await rows(), before)
  })
})

test.group("Owner's keys: the second step", (group) => {
  withRealCommits(group)

  test("an attacker's wrong codes do not lock out the owner's fresh mfaToken elsewhere, nor the device", async ({
    assert,
  }) => {
    const user = await createAdmin('twofold')
    const device = (await login('127.0.0.3', 'twofold', TEST_PASSWORD)).body.data.deviceToken
    const { secret } = await enrolled(user)
    const mfaToken = async (from: string, extra = {}) =>
      (await login(from, 'twofold', TEST_PASSWORD, extra)).body.data.mfaToken as string
    const second = (from: string, body: object) => send(from, 'POST', '/api/auth/login/2fa', body)

    // The attacker has the password: burns wrong codes from 127.0.0.66 until refused.
    const statuses: number[] = []
    for (let i = 0; i < 8; i++) {
      const token = await mfaToken('127.0.0.66')
      statuses.push((await second('127.0.0.66', { mfaToken: token, code: '000000' })).status)
    }
    assert.includeMembers(statuses, [401, 429])
    const blocked = await second('127.0.0.66', {
      mfaToken: await mfaToken('127.0.0.66'),
      code: totp(secret),
    })
    assert.equal(blocked.status, 429)

    // The owner, from another address with a fresh mfaToken: in.
    const owner = await second('127.0.0.4', {
      mfaToken: await mfaToken('127.0.0.4'),
      code: totp(secret),
    })
    assert.equal(owner.status, 200, JSON.stringify(owner.body))
    // And with the device, whatever the address.
    const withDevice = await second('127.0.0.66', {
      mfaToken: await mfaToken('127.0.0.66', { deviceToken: device }),
      code: totp(secret, 1),
      deviceToken: device,
    })
    assert.equal(withDevice.status, 200, JSON.stringify(withDevice.body))
  })
})

test.group('The front door: slider time, proof-of-work derivations, load, headers', (group) => {
  withRealCommits(group)

  test('a verify sooner after the draw than its track claims is a 400, and spends the slider', async ({
    client,
    assert,
  }) => {
    const { newCaptcha, humanTrack } = await import('#tests/helpers/captcha')
    const slider = await newCaptcha(client)
    const { captchaId } = slider.body().data
    const row = await db.from('captcha_challenges').where('id', captchaId).first()
    const x = Number(row.answer_x)
    const early = await client
      .post('/api/auth/captcha/verify')
      .json({ captchaId, x, track: humanTrack(x) })
    early.assertStatus(400)
    assert.equal(early.body().errors[0].code, 'E_CAPTCHA_FAILED')
    assert.isTrue(
      Boolean((await db.from('captcha_challenges').where('id', captchaId).first()).spent)
    )
    assert.lengthOf(await db.from('captcha_tokens'), 0)
  })

  test('wrong proof-of-work solutions: 3 derivations per address, then 429 before any', async ({
    client,
    assert,
  }) => {
    const { solvePow, wrongCounter } = await import('#tests/helpers/captcha')
    const pow = (await client.get('/api/auth/captcha')).body().data.pow
    const solved = await solvePow(pow)
    const [, ...rest] = solved.solution.counters
    const wrongFirst = await wrongCounter(pow, 0)
    const wrong = () =>
      client
        .post('/api/auth/captcha')
        .json({ pow: { ...solved, solution: { counters: [wrongFirst, ...rest] } } })
    const replies = await Promise.all([1, 2, 3, 4, 5].map(() => wrong()))
    const statuses = replies.map((reply) => reply.status()).sort()
    assert.deepEqual(statuses, [400, 400, 400, 429, 429])
    // Even the right solution now waits for the window (no derivation at all).
    const right = await client.post('/api/auth/captcha').json({ pow: solved })
    right.assertStatus(429)
  })

  test('while the hash gate is more than half full, callers without a key pay one level more', async ({
    client,
    assert,
  }) => {
    await createAdmin('loaded')
    const first = await login('127.0.0.1', 'loaded', TEST_PASSWORD)
    const deviceToken = first.body.data.deviceToken
    const level = async (headers = {}) =>
      (await client.get('/api/auth/captcha?account=loaded').headers(headers)).body().data.level
    assert.equal(await level(), 0)
    // Occupy the gate past half its anonymous capacity with work that waits for a release.
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const slots = Math.floor((hashGate.concurrency + hashGate.queueMax) / 2) + 1
    const running = Array.from({ length: slots }, () => hashGate.run('anonymous', () => held))
    try {
      assert.isAbove(hashGate.fill, 0.5)
      assert.equal(await level(), 1)
      assert.equal(await level({ 'x-device-token': deviceToken }), 0, 'a device is not charged')
      // The bump stops at level 2: a person meets 0-2 only; level 3 stays a blocked address's.
      const typos = '127.0.0.77'
      const levelFrom = async (from: string) =>
        (await sendFrom(from, 'GET', '/api/auth/captcha?account=loaded')).body.data.level
      for (let i = 0; i < 3; i++) await countFailure(ipKey(typos))
      assert.equal(await levelFrom(typos), 2)
      for (let i = 3; i < adminAuthConfig.limits.loginFailuresPerIp; i++) {
        await countFailure(ipKey(typos))
      }
      assert.equal(await levelFrom(typos), 3)
    } finally {
      release()
      await Promise.all(running)
    }
    assert.equal(await level(), 0)
  })

  test('JSON answers carry nosniff, no-referrer and frame-ancestors none', async ({ client }) => {
    for (const path of ['/api/articles', '/api/auth/me', '/api/nowhere']) {
      const response = await client.get(path)
      response.assertHeader('x-content-type-options', 'nosniff')
      response.assertHeader('referrer-policy', 'no-referrer')
      response.assertHeader('content-security-policy', "frame-ancestors 'none'")
    }
  })
})
