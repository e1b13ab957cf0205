import { test } from '@japa/runner'
import type { ApiResponse } from '@japa/api-client'
import User from '#models/user'
import Notice from '#models/notice'
import { isolate } from '#tests/helpers/database'
import { TEST_PASSWORD, createAdmin, superAdminUser } from '#tests/helpers/auth'

/*
| Issue 50 (R4-8): control characters never reach a mail, a header or a stored name
| (app/validators/text.ts). A CR/LF in an email's quoted local part was stored and mailed to.
*/
const CJK = /[\u4e00-\u9fff]/

/** 422, E_VALIDATION_ERROR, rule controlCharacters on `field`, in English and in Chinese. */
async function assertRefused(
  assert: any,
  send: (language: string) => Promise<ApiResponse>,
  field: string
) {
  for (const language of ['en', 'zh-CN']) {
    const response = await send(language)
    assert.equal(response.status(), 422, JSON.stringify(response.body()))
    const entry = response.body().errors.find((error: any) => error.field === field)
    assert.deepInclude(entry, { code: 'E_VALIDATION_ERROR', field, rule: 'controlCharacters' })
    if (language === 'en') {
      assert.equal(entry.message, `The ${field} field must not contain control characters`)
    } else {
      assert.match(entry.message, CJK)
    }
  }
}

/**
 * One of each kind: C0 line breaks, SOH, ESC, DEL, and C1's NEL. (NUL is refused before any
 * validator, anywhere in the input: app/middleware/request_input_middleware.ts.)
 */
const CONTROLS = ['\r\n', '\n', '\r', '\u0001', '\u001b', '\u007f', '\u0085']

test.group('Control characters refused in names, emails and header text', (group) => {
  isolate(group)

  test('an email with CR/LF in its quoted local part (header injection) is refused', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('mailer')
    for (const control of CONTROLS) {
      const email = `"a${control}Bcc: victim@evil.example"@example.com`
      await assertRefused(
        assert,
        (language) =>
          client
            .put('/api/auth/profile')
            .header('accept-language', language)
            .json({ email })
            .loginAs(user),
        'email'
      )
    }
    await user.refresh()
    assert.isNull(user.email)
    // Still accepted: a plain address, and surrounding blanks are trimmed.
    const fine = await client
      .put('/api/auth/profile')
      .json({ email: ' ada@example.com\n', currentPassword: TEST_PASSWORD })
      .loginAs(user)
    fine.assertStatus(200)
    await user.refresh()
    assert.equal(user.email, 'ada@example.com')
  })

  test('names: nickname, account, role name, API token name, login account', async ({
    client,
    assert,
  }) => {
    const admin = await superAdminUser()
    const self = await createAdmin('named')
    await assertRefused(
      assert,
      (l) =>
        client
          .put('/api/auth/profile')
          .header('accept-language', l)
          .json({ nickname: 'Ada\r\nX-Evil: 1' })
          .loginAs(self),
      'nickname'
    )
    await assertRefused(
      assert,
      (l) =>
        client
          .post('/api/admin/users')
          .header('accept-language', l)
          .json({ account: 'newbie', password: 'Quite-long-pass-2024!', nickname: 'N\u0001b' })
          .loginAs(admin),
      'nickname'
    )
    assert.isNull(await User.findBy('account', 'newbie'))
    await assertRefused(
      assert,
      (l) =>
        client
          .post('/api/admin/roles')
          .header('accept-language', l)
          .json({ code: 'ctl', name: 'Ops\u001b[2J' })
          .loginAs(admin),
      'name'
    )
    await assertRefused(
      assert,
      (l) =>
        client
          .post('/api/auth/tokens')
          .header('accept-language', l)
          .json({ name: 'ci\u0007', permissions: ['system:user:list'], expiresInDays: 1 })
          .loginAs(admin),
      'name'
    )
    await assertRefused(
      assert,
      (l) =>
        client
          .post('/api/auth/login')
          .header('accept-language', l)
          .json({ account: 'na\r\nmed', password: 'x', captchaToken: '0.x' }),
      'account'
    )
  })

  test('multi-line text keeps tabs and line breaks (CRLF read as LF), refuses other controls', async ({
    client,
    assert,
  }) => {
    const admin = await superAdminUser()
    const created = await client
      .post('/api/admin/notices')
      .json({ title: 'Maintenance', body: 'Line one\r\nLine two\r\tindented\n' })
      .loginAs(admin)
    created.assertStatus(201)
    const notice = await Notice.findOrFail(created.body().data.id)
    assert.equal(notice.body, 'Line one\nLine two\n\tindented')

    for (const control of ['\u0001', '\u000b', '\u001b', '\u007f', '\u0085']) {
      await assertRefused(
        assert,
        (l) =>
          client
            .post('/api/admin/notices')
            .header('accept-language', l)
            .json({ title: 'Bell', body: `ring${control}ring` })
            .loginAs(admin),
        'body'
      )
    }
    // The title is one line: a line break in it is refused.
    await assertRefused(
      assert,
      (l) =>
        client
          .post('/api/admin/notices')
          .header('accept-language', l)
          .json({ title: 'Two\nlines', body: 'b' })
          .loginAs(admin),
      'title'
    )
    // Remarks may span lines too.
    const role = await client
      .post('/api/admin/roles')
      .json({ code: 'remarked', name: 'Remarked', remark: 'first\r\nsecond' })
      .loginAs(admin)
    role.assertStatus(201)
    assert.equal(role.body().data.remark, 'first\nsecond')
    assert.lengthOf(await Notice.query().where('title', 'Bell'), 0)
  })
})
