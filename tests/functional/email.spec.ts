import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import User from '#models/user'
import adminAuthConfig from '#config/admin_auth'
import { consume } from '#auth/limits'
import { ceilingKey } from '#auth/login_limiter'
import { setMailMode, settled } from '#services/email/outbox'
import { withRealCommits } from '#tests/helpers/database'
import { TEST_PASSWORD, createAdmin, freshCredential, sessionToken } from '#tests/helpers/auth'
import { enrolled } from '#tests/helpers/two_factor'
import { sendFrom } from '#tests/helpers/http_from'
import { clearInbox, codeIn, mailsTo, tokenIn, waitForMail } from '#tests/helpers/smtp'

/**
 * Email (docs/email.md, issue 43) through a real SMTP server the run started (tests/helpers/smtp.ts):
 * verified addresses, forgot password, device links, lock notices; enumeration, single use, expiry,
 * foreign tokens, and the mail limits under parallel requests.
 */
const NEW_PASSWORD = 'Fresh-Horse-Battery-42'
const CAP = adminAuthConfig.limits.loginAccountCap

/** An administrator whose address is verified (mails go to `<account>@example.test`). */
async function verifiedAdmin(account: string) {
  const user = await createAdmin(account)
  user.email = `${account}@example.test`
  await user.save()
  user.emailVerifiedAt = DateTime.now()
  await user.save()
  return user
}

const forgot = async (client: ApiClient, account: string) =>
  client.post('/api/auth/password/forgot').json({ account, captchaToken: await freshCredential() })

const requestDevice = async (client: ApiClient, account: string) =>
  client.post('/api/auth/devices/request').json({ account, captchaToken: await freshCredential() })

const login = async (client: ApiClient, account: string, password: string, extra = {}) =>
  client
    .post('/api/auth/login')
    .json({ account, password, captchaToken: await freshCredential(), ...extra })

const userRow = (id: number) => User.findOrFail(id)

test.group('Email', (group) => {
  withRealCommits(group)
  group.each.setup(async () => {
    await settled()
    clearInbox()
    return () => settled()
  })

  test('without SMTP_HOST the mail routes are 404 and the features say so', async ({
    client,
    assert,
  }) => {
    const on = await client.get('/api/auth/features')
    on.assertStatus(200)
    assert.deepEqual(on.body(), { data: { mail: true } })
    const user = await createAdmin('nomail')
    const { token } = await sessionToken(user.id)
    setMailMode('off')
    try {
      assert.deepEqual((await client.get('/api/auth/features')).body(), { data: { mail: false } })
      const token43 = 'A'.repeat(43)
      const answers = [
        await forgot(client, 'nomail'),
        await requestDevice(client, 'nomail'),
        await client.post('/api/auth/password/reset').json({ token: token43, password: 'x' }),
        await client.post('/api/auth/devices/enrol').json({ token: token43 }),
        await client.post('/api/auth/email/undo').json({ token: token43, password: 'x' }),
        await client
          .post('/api/auth/profile/email/verify')
          .bearerToken(token)
          .json({ code: '123456' }),
        await client.post('/api/auth/profile/email/code').bearerToken(token),
      ]
      for (const answer of answers) {
        answer.assertStatus(404)
        assert.equal(answer.body().errors[0].code, 'E_NOT_FOUND')
      }
    } finally {
      setMailMode('smtp')
    }
  })

  test('a changed address gets a code; only the right, fresh code for it verifies', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('verifier')
    const other = await createAdmin('bystander')
    const { token } = await sessionToken(user.id)
    const { token: otherToken } = await sessionToken(other.id)

    const put = await client
      .put('/api/auth/profile')
      .bearerToken(token)
      .json({ email: 'verifier@example.test', currentPassword: TEST_PASSWORD })
    put.assertStatus(200)
    assert.isFalse(put.body().data.emailVerified)
    const mail = await waitForMail('verifier@example.test')
    assert.match(mail.subject, /confirm your email/)
    assert.include(mail.html, codeIn(mail))
    const code = codeIn(mail)
    const wrong = code === '000000' ? '111111' : '000000'

    // Another account cannot spend it; a wrong code is refused; nothing changes.
    const foreign = await client
      .post('/api/auth/profile/email/verify')
      .bearerToken(otherToken)
      .json({ code })
    foreign.assertStatus(400)
    assert.equal(foreign.body().errors[0].code, 'E_EMAIL_CODE_INVALID')
    const bad = await client
      .post('/api/auth/profile/email/verify')
      .bearerToken(token)
      .json({ code: wrong })
    bad.assertStatus(400)
    assert.isNull((await userRow(user.id)).emailVerifiedAt)

    const ok = await client.post('/api/auth/profile/email/verify').bearerToken(token).json({ code })
    ok.assertStatus(200)
    assert.isTrue(ok.body().data.emailVerified)
    const me = await client.get('/api/auth/me').bearerToken(token)
    assert.isTrue(me.body().data.user.emailVerified)
    const audit = await db
      .from('audit_logs')
      .where('target_id', String(user.id))
      .where('permission', 'own:profile')
      .orderBy('id', 'desc')
      .first()
    assert.include(JSON.stringify(audit.changes), 'emailVerified')

    // Single use.
    const again = await client
      .post('/api/auth/profile/email/verify')
      .bearerToken(token)
      .json({ code })
    again.assertStatus(400)

    // A new address is unverified again, and the old code is no use for it.
    await client
      .put('/api/auth/profile')
      .bearerToken(token)
      .json({ email: 'verifier2@example.test', currentPassword: TEST_PASSWORD })
    assert.isNull((await userRow(user.id)).emailVerifiedAt)
    const second = codeIn(await waitForMail('verifier2@example.test'))
    // Five wrong tries kill it: the right code is refused after them.
    const miss = second === '000000' ? '111111' : '000000'
    for (let i = 0; i < 5; i++) {
      const tried = await client
        .post('/api/auth/profile/email/verify')
        .bearerToken(token)
        .json({ code: miss })
      tried.assertStatus(400)
    }
    const late = await client
      .post('/api/auth/profile/email/verify')
      .bearerToken(token)
      .json({ code: second })
    late.assertStatus(400)
    assert.isNull((await userRow(user.id)).emailVerifiedAt)

    // Resend: a new code, which works; an expired one does not.
    ;(await client.post('/api/auth/profile/email/code').bearerToken(token)).assertStatus(202)
    const third = codeIn(await waitForMail('verifier2@example.test', 2))
    await db
      .from('email_tokens')
      .where('user_id', user.id)
      .whereNull('used_at')
      .update({ expires_at: Date.now() - 1 })
    const expired = await client
      .post('/api/auth/profile/email/verify')
      .bearerToken(token)
      .json({ code: third })
    expired.assertStatus(400)
    assert.isNull((await userRow(user.id)).emailVerifiedAt)
    // 3 codes per 15 minutes: the two address changes and the resend spent them.
    const refused = await client.post('/api/auth/profile/email/code').bearerToken(token)
    refused.assertStatus(429)
  })

  test('forgot password: one link, single use; reset applies the policy and ends every session', async ({
    client,
    assert,
  }) => {
    const user = await verifiedAdmin('forgetful')
    await enrolled(user)
    const { token: session } = await sessionToken(user.id)
    const before = (await userRow(user.id)).tokenVersion

    const asked = await forgot(client, 'Forgetful')
    asked.assertStatus(202)
    assert.deepEqual(asked.body(), { data: { accepted: true } })
    const mail = await waitForMail('forgetful@example.test')
    assert.match(mail.subject, /reset your password/)
    assert.notInclude(mail.text, TEST_PASSWORD)
    const link = tokenIn(mail, 'reset-password')
    assert.include(mail.html, link)

    // The policy applies (422) and the link still works afterwards.
    const weak = await client
      .post('/api/auth/password/reset')
      .json({ token: link, password: 'password1' })
    weak.assertStatus(422)
    const reused = await client
      .post('/api/auth/password/reset')
      .json({ token: link, password: TEST_PASSWORD })
    reused.assertStatus(422)
    assert.equal(reused.body().errors[0].rule, 'history')
    assert.equal((await userRow(user.id)).tokenVersion, before)

    const done = await client
      .post('/api/auth/password/reset')
      .json({ token: link, password: NEW_PASSWORD })
    done.assertStatus(204)
    assert.equal((await userRow(user.id)).tokenVersion, before + 1)
    ;(await client.get('/api/auth/me').bearerToken(session)).assertStatus(401)
    const logged = await db
      .from('login_logs')
      .where('user_id', user.id)
      .where('outcome', 'password_reset')
      .first()
    assert.exists(logged)
    const audit = await db
      .from('audit_logs')
      .where('target_id', String(user.id))
      .where('permission', 'own:password-reset')
      .first()
    assert.exists(audit)

    // Single use.
    const twice = await client
      .post('/api/auth/password/reset')
      .json({ token: link, password: 'Another-Horse-Battery-43' })
    twice.assertStatus(400)
    assert.equal(twice.body().errors[0].code, 'E_EMAIL_TOKEN_INVALID')

    // The new password signs in, and the second factor is still asked.
    const signIn = await login(client, 'forgetful', NEW_PASSWORD)
    signIn.assertStatus(200)
    assert.isTrue(signIn.body().data.mfaRequired)
  })

  test('enumeration: the same answer for unknown, unverified and verified accounts; only the verified one gets mail', async ({
    client,
    assert,
  }) => {
    await verifiedAdmin('known')
    const unverified = await createAdmin('unproven')
    unverified.email = 'unproven@example.test'
    await unverified.save()
    for (const send of [forgot, requestDevice]) {
      const answers = [
        await send(client, 'known'),
        await send(client, 'unproven'),
        await send(client, 'nobody-here'),
      ]
      for (const answer of answers) {
        assert.equal(answer.status(), 202)
        assert.deepEqual(answer.body(), answers[0].body())
      }
    }
    await settled()
    assert.lengthOf(mailsTo('known@example.test'), 2)
    assert.lengthOf(mailsTo('unproven@example.test'), 0)
    // A credential is still required, as for a login.
    const none = await client.post('/api/auth/password/forgot').json({ account: 'known' })
    none.assertStatus(400)
    assert.equal(none.body().errors[0].code, 'E_CAPTCHA_TOKEN_INVALID')
  })

  test('links are refused for another purpose, once expired, and for a disabled account; nothing changes', async ({
    client,
    assert,
  }) => {
    const user = await verifiedAdmin('careful')
    ;(await forgot(client, 'careful')).assertStatus(202)
    ;(await requestDevice(client, 'careful')).assertStatus(202)
    await waitForMail('careful@example.test', 2)
    const [reset, device] = ['reset-password', 'enrol-device'].map((route) =>
      tokenIn(
        mailsTo('careful@example.test').find((mail) => mail.text.includes(route))!,
        route
      )
    )
    const version = (await userRow(user.id)).tokenVersion

    const crossed = [
      await client.post('/api/auth/password/reset').json({ token: device, password: NEW_PASSWORD }),
      await client.post('/api/auth/devices/enrol').json({ token: reset }),
      await client.post('/api/auth/devices/enrol').json({ token: 'x'.repeat(43) }),
    ]
    for (const answer of crossed) {
      answer.assertStatus(400)
      assert.equal(answer.body().errors[0].code, 'E_EMAIL_TOKEN_INVALID')
    }
    assert.equal((await userRow(user.id)).tokenVersion, version)
    assert.lengthOf(await db.from('device_tokens').where('user_id', user.id), 0)

    await db
      .from('email_tokens')
      .where('user_id', user.id)
      .update({ expires_at: Date.now() - 1 })
    ;(
      await client.post('/api/auth/password/reset').json({ token: reset, password: NEW_PASSWORD })
    ).assertStatus(400)
    ;(await client.post('/api/auth/devices/enrol').json({ token: device })).assertStatus(400)
    await db
      .from('email_tokens')
      .where('user_id', user.id)
      .update({ expires_at: Date.now() + 60_000 })
    await db.from('users').where('id', user.id).update({ status: 'disabled' })
    ;(await client.post('/api/auth/devices/enrol').json({ token: device })).assertStatus(400)
    assert.equal((await userRow(user.id)).tokenVersion, version)
    assert.lengthOf(await db.from('device_tokens').where('user_id', user.id), 0)
  })

  test('a locked account signs in through a device link', async ({ client, assert }) => {
    await verifiedAdmin('besieged2')
    for (let i = 0; i < CAP; i++) await consume(ceilingKey('besieged2'))
    const locked = await login(client, 'besieged2', TEST_PASSWORD)
    locked.assertStatus(429)
    assert.equal(locked.body().errors[0].code, 'E_ACCOUNT_LOCKED')

    ;(await requestDevice(client, 'besieged2')).assertStatus(202)
    const link = tokenIn(await waitForMail('besieged2@example.test'), 'enrol-device')
    const enrol = await client.post('/api/auth/devices/enrol').json({ token: link })
    enrol.assertStatus(200)
    assert.equal(enrol.body().data.account, 'besieged2')
    const deviceToken = enrol.body().data.deviceToken
    ;(await client.post('/api/auth/devices/enrol').json({ token: link })).assertStatus(400)

    const signIn = await login(client, 'besieged2', TEST_PASSWORD, { deviceToken })
    signIn.assertStatus(200)
    assert.exists(signIn.body().data.token)
    assert.exists(
      await db
        .from('login_logs')
        .where('account', 'besieged2')
        .where('outcome', 'device_enrolled')
        .first()
    )
  })

  test('the failure that reaches the ceiling mails the owner once, with the addresses count', async ({
    assert,
  }) => {
    const user = await verifiedAdmin('target')
    for (let i = 0; i < CAP - 3; i++) await consume(ceilingKey('target'))
    const statuses = []
    for (const from of ['127.0.0.2', '127.0.0.3', '127.0.0.2', '127.0.0.4']) {
      const reply = await sendFrom(from, 'POST', '/api/auth/login', {
        body: {
          account: 'target',
          password: 'Wrong-Guess-123',
          captchaToken: await freshCredential(from),
        },
      })
      statuses.push(reply.status)
    }
    assert.deepEqual(statuses, [401, 401, 401, 429])
    const notice = await waitForMail('target@example.test')
    await settled()
    assert.lengthOf(mailsTo('target@example.test'), 1)
    assert.match(notice.subject, /locked/)
    assert.include(notice.text, `${CAP} failed sign-ins`)
    assert.include(notice.text, '2 addresses')
    assert.include(notice.html, 'sign-in link for this browser')
    assert.equal((await userRow(user.id)).failedLogins, 3)
  })

  test('the mail limits hold under 20 parallel requests', async ({ client, assert }) => {
    await verifiedAdmin('popular')
    const credentials = await Promise.all(Array.from({ length: 40 }, () => freshCredential()))
    const answers = await Promise.all(
      credentials.map((captchaToken, i) =>
        client
          .post(i % 2 ? '/api/auth/devices/request' : '/api/auth/password/forgot')
          .json({ account: 'popular', captchaToken })
      )
    )
    assert.deepEqual([...new Set(answers.map((answer) => answer.status()))], [202])
    await settled()
    const mails = mailsTo('popular@example.test')
    assert.lengthOf(mails, 2)
    assert.lengthOf(
      mails.filter((mail) => /reset your password/.test(mail.subject)),
      1
    )
    const live = await db.from('email_tokens').whereNull('used_at').count('* as n').first()
    assert.equal(Number(live.n), 2)
  })
})
