import { test } from '@japa/runner'
import { createHash } from 'node:crypto'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import User from '#models/user'
import { UNDO_TTL_MS } from '#auth/email_tokens'
import { settled } from '#services/email/outbox'
import { MASKED } from '#services/audit_log'
import { withRealCommits } from '#tests/helpers/database'
import {
  TEST_PASSWORD,
  createAdmin,
  freshCredential,
  sessionToken,
  superAdminUser,
} from '#tests/helpers/auth'
import { SoftAuthenticator } from '#tests/helpers/passkey_authenticator'
import { clearInbox, codeIn, mailsTo, tokenIn, waitForMail } from '#tests/helpers/smtp'

/**
 * The own email change (issue 50, R4-1; docs/email.md, "Email change") through the real SMTP
 * sink: the current password is asked, the replaced address gets a single-use undo link that
 * restores it and ends everything a stolen session or password set up, and a reset soon after a
 * change tells the replaced address.
 */
const NEW_PASSWORD = 'Fresh-Horse-Battery-42'
const ATTACKER = 'attacker@example.test'

/** An administrator whose address `<account>@example.test` is verified. */
async function verifiedAdmin(account: string) {
  const user = await createAdmin(account)
  user.email = `${account}@example.test`
  user.emailVerifiedAt = DateTime.now()
  await user.save()
  return user
}

const putProfile = (client: ApiClient, token: string, body: Record<string, unknown>) =>
  client.put('/api/auth/profile').bearerToken(token).json(body)

const undo = (client: ApiClient, token: string, password = NEW_PASSWORD) =>
  client.post('/api/auth/email/undo').json({ token, password })

const login = async (client: ApiClient, account: string, password: string, extra = {}) =>
  client
    .post('/api/auth/login')
    .json({ account, password, captchaToken: await freshCredential(), ...extra })

/** Changes the address with the password and proves the new one with its mailed code. */
async function changeAndVerify(client: ApiClient, token: string, to: string, count = 1) {
  ;(await putProfile(client, token, { email: to, currentPassword: TEST_PASSWORD })).assertStatus(
    200
  )
  const code = codeIn(await waitForMail(to, count))
  const verified = await client
    .post('/api/auth/profile/email/verify')
    .bearerToken(token)
    .json({ code })
  verified.assertStatus(200)
}

/** The undo link in the `count`th mail to `address`. */
const undoLinkTo = async (address: string, count = 1) =>
  tokenIn(await waitForMail(address, count), 'undo-email')

const row = (id: number) => User.findOrFail(id)

test.group('Email change', (group) => {
  withRealCommits(group)
  group.each.setup(async () => {
    await settled()
    clearInbox()
    return () => settled()
  })

  test('without the current password, or with a wrong one: 422, nothing changed, no mail', async ({
    client,
    assert,
  }) => {
    const user = await verifiedAdmin('holder')
    const { token } = await sessionToken(user.id)
    const before = (await row(user.id)).$attributes

    const refusals = [
      await putProfile(client, token, { email: ATTACKER }),
      await putProfile(client, token, {
        email: ATTACKER,
        nickname: 'Mallory',
        currentPassword: '',
      }),
      await putProfile(client, token, { email: null }),
      await putProfile(client, token, { email: ATTACKER, currentPassword: 'Wrong-Guess-123' }),
      await putProfile(client, token, { email: ATTACKER, currentPassword: 7 }),
    ]
    for (const refusal of refusals) {
      refusal.assertStatus(422)
      assert.deepInclude(refusal.body().errors[0], {
        code: 'E_VALIDATION_ERROR',
        field: 'currentPassword',
      })
    }
    assert.equal(refusals[0].body().errors[0].rule, 'required')
    const zh = await client
      .put('/api/auth/profile')
      .bearerToken(token)
      .header('accept-language', 'zh-CN')
      .json({ email: ATTACKER })
    assert.equal(zh.body().errors[0].message, '修改邮箱需要输入当前密码')

    assert.deepEqual((await row(user.id)).$attributes, before)
    const me = (await client.get('/api/auth/me').bearerToken(token)).body().data.user
    assert.include(me, { nickname: 'holder', emailVerified: true })
    const profile = (await client.get('/api/auth/profile').bearerToken(token)).body().data
    assert.equal(profile.email, 'holder@example.test')
    assert.lengthOf(await db.from('audit_logs').where('actor_id', user.id), 0)
    assert.lengthOf(await db.from('email_tokens').where('user_id', user.id), 0)
    await settled()
    assert.lengthOf(mailsTo(ATTACKER), 0)
    assert.lengthOf(mailsTo('holder@example.test'), 0)

    // No password is asked when the address stays as it is.
    const same = await putProfile(client, token, {
      nickname: 'Holder',
      email: 'holder@example.test',
    })
    same.assertStatus(200)
    assert.isTrue((await row(user.id)).emailVerified)
  })

  test('the admin API does not change the own address (no password there): 403, nothing changed', async ({
    client,
    assert,
  }) => {
    const admin = await superAdminUser({
      account: 'chief',
      email: 'chief@example.test',
      emailVerifiedAt: DateTime.now(),
    })
    const { token } = await sessionToken(admin.id)
    const own = await client
      .put(`/api/admin/users/${admin.id}`)
      .bearerToken(token)
      .json({ email: ATTACKER })
    own.assertStatus(403)
    assert.equal(own.body().errors[0].code, 'E_FORBIDDEN')
    assert.include(own.body().errors[0].message, 'PUT /api/auth/profile')
    const after = await row(admin.id)
    assert.equal(after.email, 'chief@example.test')
    assert.isTrue(after.emailVerified)
    // Its nickname, and another account's address, still go through.
    const other = await createAdmin('managed')
    ;(
      await client
        .put(`/api/admin/users/${admin.id}`)
        .bearerToken(token)
        .json({ nickname: 'Chief', email: 'chief@example.test' })
    ).assertStatus(200)
    ;(
      await client
        .put(`/api/admin/users/${other.id}`)
        .bearerToken(token)
        .json({ email: 'managed@example.test' })
    ).assertStatus(200)
    assert.equal((await row(other.id)).email, 'managed@example.test')
  })

  test('with the password: 200; the replaced address gets an undo link, stored hashed for 7 days', async ({
    client,
    assert,
  }) => {
    const user = await verifiedAdmin('mover')
    const { token } = await sessionToken(user.id)
    const changed = await putProfile(client, token, {
      email: 'mover.new@example.test',
      currentPassword: TEST_PASSWORD,
    })
    changed.assertStatus(200)
    assert.include(changed.body().data, { email: 'mover.new@example.test', emailVerified: false })

    const mail = await waitForMail('mover@example.test')
    assert.match(mail.subject, /your email address was changed/)
    assert.include(mail.text, 'mover.new@example.test')
    const link = tokenIn(mail, 'undo-email')
    assert.include(mail.html, link)
    assert.match(codeIn(await waitForMail('mover.new@example.test')), /^[0-9]{6}$/)

    const stored = await db
      .from('email_tokens')
      .where('user_id', user.id)
      .where('purpose', 'email_undo')
    assert.lengthOf(stored, 1)
    assert.equal(stored[0].token_hash, createHash('sha256').update(link).digest('hex'))
    assert.equal(stored[0].email, 'mover@example.test')
    const ttl = Number(stored[0].expires_at) - Number(stored[0].created_at)
    assert.equal(ttl, UNDO_TTL_MS)
    const audit = await db.from('audit_logs').where('actor_id', user.id).firstOrFail()
    assert.deepEqual(JSON.parse(audit.changes).email, [
      'mover@example.test',
      'mover.new@example.test',
    ])

    // An unverified address being replaced gets nothing (only proven addresses get mail).
    await putProfile(client, token, {
      email: 'mover.third@example.test',
      currentPassword: TEST_PASSWORD,
    })
    await settled()
    assert.lengthOf(mailsTo('mover.new@example.test'), 1)
    assert.lengthOf(
      await db.from('email_tokens').where('user_id', user.id).where('purpose', 'email_undo'),
      1
    )
  })

  test('the undo link restores the address and ends sessions, devices and new passkeys; single use', async ({
    client,
    assert,
  }) => {
    const user = await verifiedAdmin('victim')
    // A session and a remembered browser of the owner, then the owner's own passkey.
    const signedIn = await login(client, 'victim', TEST_PASSWORD)
    signedIn.assertStatus(200)
    const { deviceToken } = signedIn.body().data
    assert.isString(deviceToken)
    const { token: setup } = await sessionToken(user.id)
    const register = async (token: string, name: string, authenticator: SoftAuthenticator) => {
      const options = await client
        .post('/api/auth/passkeys/options')
        .bearerToken(token)
        .json({ password: TEST_PASSWORD })
      const stored = await client
        .post('/api/auth/passkeys')
        .bearerToken(token)
        .json({ name, response: authenticator.register(options.body().data) })
      stored.assertStatus(201)
    }
    await register(setup, 'Owner', new SoftAuthenticator())

    // Someone with a session and the password moves the address and adds a passkey.
    const stolen = (await sessionToken(user.id, (await row(user.id)).tokenVersion)).token
    await changeAndVerify(client, stolen, ATTACKER)
    await register(stolen, 'Intruder', new SoftAuthenticator())
    const link = await undoLinkTo('victim@example.test')
    assert.isTrue((await row(user.id)).emailVerified)
    assert.lengthOf(await db.from('passkeys').where('user_id', user.id), 2)
    const version = (await row(user.id)).tokenVersion

    // A password the policy refuses: 422, nothing changed, the link still works.
    const weak = await undo(client, link, 'password')
    weak.assertStatus(422)
    assert.equal(weak.body().errors[0].field, 'password')
    assert.equal((await row(user.id)).email, ATTACKER)

    const undone = await undo(client, link)
    undone.assertStatus(204)
    const after = await row(user.id)
    assert.equal(after.email, 'victim@example.test')
    assert.isTrue(after.emailVerified)
    assert.equal(after.tokenVersion, version + 1)
    assert.isFalse(after.mustChangePassword)
    for (const token of [stolen, signedIn.body().data.token]) {
      const me = await client.get('/api/auth/me').bearerToken(token)
      me.assertStatus(401)
    }
    assert.lengthOf(await db.from('device_tokens').where('user_id', user.id), 0)
    assert.lengthOf(
      await db.from('admin_sessions').where('user_id', user.id).whereNull('ended_at'),
      0
    )
    const passkeys = await db.from('passkeys').where('user_id', user.id)
    assert.deepEqual(
      passkeys.map((passkey) => passkey.name),
      ['Owner']
    )
    const audit = await db
      .from('audit_logs')
      .where('permission', 'own:email-undo')
      .where('target_id', String(user.id))
      .firstOrFail()
    assert.deepEqual(JSON.parse(audit.changes), {
      email: [ATTACKER, 'victim@example.test'],
      password: [MASKED, MASKED],
      passkeysSinceChange: [1, 0],
    })
    const logged = await db
      .from('login_logs')
      .where('user_id', user.id)
      .where('outcome', 'email_change_undone')
    assert.lengthOf(logged, 1)

    // Single use; the old password is gone, the new one is right (the owner's passkey is asked).
    const twice = await undo(client, link, 'Another-Horse-Battery-43')
    twice.assertStatus(400)
    assert.equal(twice.body().errors[0].code, 'E_EMAIL_TOKEN_INVALID')
    ;(await login(client, 'victim', TEST_PASSWORD)).assertStatus(401)
    const fresh = await login(client, 'victim', NEW_PASSWORD)
    fresh.assertStatus(200)
    assert.isTrue(fresh.body().data.mfaRequired)
  })

  test('the oldest address wins: a later change’s link dies when an earlier is used, not the reverse; reset links die', async ({
    client,
    assert,
  }) => {
    const user = await verifiedAdmin('chain')
    const { token } = await sessionToken(user.id)
    // chain@ -> attacker (verified) -> elsewhere: the attacker's address gets the second link.
    await changeAndVerify(client, token, ATTACKER)
    const owners = await undoLinkTo('chain@example.test')
    await putProfile(client, token, {
      email: 'elsewhere@example.test',
      currentPassword: TEST_PASSWORD,
    })
    const attackers = await undoLinkTo(ATTACKER, 2)

    // The attacker undoes the later change first: back to their address, their password.
    ;(await undo(client, attackers, 'Attacker-Horse-Battery-7')).assertStatus(204)
    assert.equal((await row(user.id)).email, ATTACKER)
    // ...and asks for a reset link to it.
    const forgot = await client
      .post('/api/auth/password/forgot')
      .json({ account: 'chain', captchaToken: await freshCredential() })
    forgot.assertStatus(202)
    const reset = tokenIn(
      await waitForMail(ATTACKER, 3).then(() =>
        mailsTo(ATTACKER).find((mail) => /reset your password/.test(mail.subject))!
      ),
      'reset-password'
    )

    // The owner's earlier link still works, and it retires what the attacker holds.
    ;(await undo(client, owners)).assertStatus(204)
    assert.equal((await row(user.id)).email, 'chain@example.test')
    const late = await client
      .post('/api/auth/password/reset')
      .json({ token: reset, password: 'Attacker-Horse-Battery-8' })
    late.assertStatus(400)
    assert.equal(late.body().errors[0].code, 'E_EMAIL_TOKEN_INVALID')
    ;(await login(client, 'chain', NEW_PASSWORD)).assertStatus(200)
  })

  test('a reset within 72 h of a change also tells the replaced address; later it does not', async ({
    client,
    assert,
  }) => {
    const recent = await verifiedAdmin('recent')
    const aged = await verifiedAdmin('aged')
    for (const user of [recent, aged]) {
      const { token } = await sessionToken(user.id)
      await changeAndVerify(client, token, `${user.account}.new@example.test`)
      await waitForMail(`${user.account}@example.test`)
    }
    // The change of `aged` happened 73 hours ago.
    await db
      .from('email_tokens')
      .where('user_id', aged.id)
      .where('purpose', 'email_undo')
      .update({ created_at: Date.now() - 73 * 3600_000 })
    clearInbox()

    for (const account of ['recent', 'aged']) {
      const answer = await client
        .post('/api/auth/password/forgot')
        .json({ account, captchaToken: await freshCredential() })
      answer.assertStatus(202)
    }
    await settled()
    for (const account of ['recent', 'aged']) {
      const [reset] = mailsTo(`${account}.new@example.test`)
      assert.match(reset.subject, /reset your password/)
      tokenIn(reset, 'reset-password')
    }
    const notices = mailsTo('recent@example.test')
    assert.lengthOf(notices, 1)
    assert.match(notices[0].subject, /password reset was asked/)
    // A notice, not a way in.
    assert.notMatch(notices[0].text, /token=/)
    assert.lengthOf(mailsTo('aged@example.test'), 0)
  })
})
