import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import sharp from 'sharp'
import { settled } from '#services/email/outbox'
import { withRealCommits } from '#tests/helpers/database'
import { TEST_PASSWORD, createAdmin, freshCredential } from '#tests/helpers/auth'
import { captchaAt } from '#tests/helpers/captcha'
import { fetchJson, readJson, startAppProcess } from '#tests/helpers/app_process'
import { clearInbox, waitForMail } from '#tests/helpers/smtp'

/**
 * What loads on first use instead of at boot (the mail package and nodemailer: providers/
 * mail_provider.ts; the mail service: start/events.ts; sharp: app/core/sharp.ts) is ready when
 * its first user runs: each request below is the first of its kind in a server process started
 * for this test, as after a deploy.
 */
test.group('The first requests of a freshly started server', (group) => {
  withRealCommits(group)
  group.each.setup(async () => {
    await settled()
    clearInbox()
  })

  test('a captcha, a mail and an avatar upload, each first in its process', async ({ assert }) => {
    const user = await createAdmin('firstcomer')
    user.email = 'firstcomer@example.test'
    user.emailVerifiedAt = DateTime.now()
    await user.save()

    const app = await startAppProcess({})
    try {
      const challenge = await captchaAt(app.url)
      assert.isString(challenge.captchaId)

      const forgot = await fetchJson(`${app.url}/api/auth/password/forgot`, {
        method: 'POST',
        body: JSON.stringify({ account: 'firstcomer', captchaToken: await freshCredential() }),
      })
      assert.equal(forgot.status, 202, JSON.stringify(forgot.body))
      const mail = await waitForMail('firstcomer@example.test')
      assert.match(mail.text, /\?token=[\w-]{20,}/)

      const login = await fetchJson(`${app.url}/api/auth/login`, {
        method: 'POST',
        body: JSON.stringify({
          account: 'firstcomer',
          password: TEST_PASSWORD,
          captchaToken: await freshCredential(),
        }),
      })
      assert.equal(login.status, 200, JSON.stringify(login.body))
      const png = await sharp({
        create: { width: 64, height: 64, channels: 3, background: '#3366aa' },
      })
        .png()
        .toBuffer()
      const form = new FormData()
      form.append('avatar', new Blob([png], { type: 'image/png' }), 'me.png')
      const upload = await fetch(`${app.url}/api/auth/avatar`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${login.body.data.token}` },
        body: form,
      })
      const answer = await readJson(upload)
      assert.equal(upload.status, 200, JSON.stringify(answer))
      assert.match(answer.data.avatarUrl, new RegExp(`^/api/avatars/${user.id}\\?v=`))
    } finally {
      await app.stop()
    }
  })
})
