import { test } from '@japa/runner'
import { captchaAt, rightVerify } from '#tests/helpers/captcha'
import { withRealCommits } from '#tests/helpers/database'
import {
  ADMIN_ACCOUNT,
  ADMIN_PASSWORD,
  TEST_PASSWORD,
  challengeAnswer,
  createAdmin,
} from '#tests/helpers/auth'
import { startAppProcess, readJson } from '#tests/helpers/app_process'

/**
 * The real server, as its own process logging JSON lines at debug level, is driven through the
 * login flow with secrets in play; then every line it wrote is inspected.
 */
test.group('Reliability: logs', (group) => {
  withRealCommits(group)

  test('no password, credential, JWT or captcha answer is logged, and a line break cannot forge a line', async ({
    assert,
  }) => {
    await createAdmin('plain.admin')
    const instance = await startAppProcess({ LOG_LEVEL: 'debug' })
    const secrets: string[] = [ADMIN_PASSWORD, TEST_PASSWORD]
    const answers: number[] = []
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${instance.url}${path}`, {
        method: path.endsWith('password') ? 'PUT' : 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      })
    const credential = async () => {
      const challenge = await captchaAt(instance.url)
      const row = { answer_x: await challengeAnswer(challenge.captchaId) }
      answers.push(Number(row.answer_x))
      const verify = await post(
        '/api/auth/captcha/verify',
        await rightVerify(challenge, Number(row.answer_x))
      )
      const token = (await readJson(verify)).data.captchaToken as string
      secrets.push(token)
      return token
    }

    try {
      // A successful login, then its JWT used.
      const login = await post('/api/auth/login', {
        account: ADMIN_ACCOUNT,
        password: ADMIN_PASSWORD,
        captchaToken: await credential(),
      })
      assert.equal(login.status, 200)
      const jwt = (await readJson(login)).data.token as string
      secrets.push(jwt)
      assert.equal(
        (
          await fetch(`${instance.url}/api/auth/me`, {
            headers: { authorization: `Bearer ${jwt}` },
          })
        ).status,
        200
      )

      // Failed logins, one with an account name that tries to forge a log line (refused as a
      // control character before any log line could carry it).
      const forged = 'mallory\n{"level":30,"msg":"login succeeded","forged":true}'
      assert.equal(
        (
          await post('/api/auth/login', {
            account: forged,
            password: 'Guess-Password-1',
            captchaToken: await credential(),
          })
        ).status,
        422
      )
      secrets.push('Guess-Password-1')
      assert.equal(
        (
          await post('/api/auth/login', {
            account: 'plain.admin',
            password: 'Other-Guess-2',
            captchaToken: await credential(),
          })
        ).status,
        401
      )
      secrets.push('Other-Guess-2')

      // A password change with both passwords in the body.
      const plain = await post('/api/auth/login', {
        account: 'plain.admin',
        password: TEST_PASSWORD,
        captchaToken: await credential(),
      })
      const plainJwt = (await readJson(plain)).data.token as string
      secrets.push(plainJwt)
      const newPassword = 'Freshly-Changed-Secret-8'
      secrets.push(newPassword)
      const change = await post(
        '/api/auth/password',
        { currentPassword: TEST_PASSWORD, newPassword },
        { authorization: `Bearer ${plainJwt}` }
      )
      assert.equal(change.status, 200)
      const changedJwt = (await readJson(change)).data.token as string
      secrets.push(changedJwt)
      // A denied admin call (logged as a warning).
      await fetch(`${instance.url}/api/admin/users`, {
        headers: { authorization: `Bearer ${changedJwt}` },
      })
    } finally {
      await instance.stop()
    }

    const lines = instance
      .output()
      .split('\n')
      .filter((line) => line.trim().length > 0)
    assert.isAbove(lines.length, 3, 'the server logged something')
    const records = lines.map((line) => {
      try {
        return JSON.parse(line)
      } catch {
        throw new Error(`a log line is not one JSON record: ${line}`)
      }
    })
    for (const secret of secrets) {
      assert.notInclude(instance.output(), secret, 'a secret reached the log')
    }
    assert.isFalse(
      records.some((record) => record.forged === true),
      'a forged record was written'
    )
    // The forged name never became a login record: a control character is a 422 at the door.
    assert.notExists(records.find((record) => String(record.account ?? '').startsWith('mallory')))
    const keys = records.flatMap((record) => Object.keys(record))
    assert.notIncludeMembers(keys, [
      'answerX',
      'answer_x',
      'x',
      'password',
      'captchaToken',
      'token',
    ])
    assert.isAbove(answers.length, 0)
  })
})
