import { test } from '@japa/runner'
import { readFileSync } from 'node:fs'
import app from '@adonisjs/core/services/app'
import { isolate } from '#tests/helpers/database'
import { PERMISSIONS } from '#auth/permissions'
import {
  TEST_PASSWORD,
  createAdmin,
  freshCredential,
  userWithPermissions,
} from '#tests/helpers/auth'
import { seededAdmin } from '#tests/helpers/rbac'

/**
 * Server messages in the caller's language (config/i18n.ts): the same request in `en` and `zh-CN`
 * answers the same status, code and field, with the message in that language; codes never change.
 */
const CJK = /[\u4e00-\u9fff]/

type Send = (language: string) => Promise<{ status(): number; body(): any }>

async function inBoth(assert: any, send: Send) {
  const en = await send('en')
  const zh = await send('zh-CN,zh;q=0.9,en;q=0.5')
  assert.equal(zh.status(), en.status())
  const [enError] = en.body().errors
  const [zhError] = zh.body().errors
  assert.equal(zhError.code, enError.code)
  assert.equal(zhError.field, enError.field)
  assert.notMatch(enError.message, CJK, enError.message)
  assert.match(zhError.message, CJK, zhError.message)
  return { status: en.status(), code: enError.code as string, en: enError, zh: zhError }
}

const language = (value: string) => ({ 'accept-language': value })

test.group('Languages: error and validation messages', (group) => {
  isolate(group)

  test('each error family answers in the language asked for; codes and fields never change', async ({
    client,
    assert,
  }) => {
    const admin = await seededAdmin()
    const { user: reader } = await userWithPermissions([PERMISSIONS.user.list])
    await createAdmin('polyglot')

    const families = [
      // 401: no token.
      await inBoth(assert, (l) => client.get('/api/auth/me').headers(language(l))),
      // 403: a route the caller lacks the code for.
      await inBoth(assert, (l) =>
        client.get('/api/admin/roles').headers(language(l)).loginAs(reader)
      ),
      // 404: an unknown session of one's own.
      await inBoth(assert, (l) =>
        client
          .delete('/api/auth/sessions/AAAAAAAAAAAAAAAAAAAAAA')
          .headers(language(l))
          .loginAs(admin)
      ),
      // 409: a role code already taken.
      await inBoth(assert, (l) =>
        client
          .post('/api/admin/roles')
          .headers(language(l))
          .json({ code: 'super_admin', name: 'Again' })
          .loginAs(admin)
      ),
      // 422 from VineJS: a missing field, with the grammar of its rule.
      await inBoth(assert, (l) =>
        client.post('/api/auth/login').headers(language(l)).json({ password: 'x' })
      ),
      // 422 from business code: a password that breaks the policy.
      await inBoth(assert, (l) =>
        client
          .put('/api/auth/password')
          .headers(language(l))
          .json({ currentPassword: TEST_PASSWORD, newPassword: 'short' })
          .loginAs(admin)
      ),
      // 400: a captcha credential that was never issued.
      await inBoth(assert, (l) =>
        client
          .post('/api/auth/login')
          .headers(language(l))
          .json({ account: 'polyglot', password: 'Wrong-1', captchaToken: '0.never-issued' })
      ),
    ]
    assert.deepEqual(
      families.map((family) => `${family.status} ${family.code}`),
      [
        '401 E_UNAUTHORIZED',
        '403 E_FORBIDDEN',
        '404 E_NOT_FOUND',
        '409 E_CONFLICT',
        '422 E_VALIDATION_ERROR',
        '422 E_VALIDATION_ERROR',
        '400 E_CAPTCHA_TOKEN_INVALID',
      ]
    )
    assert.equal(families[4].en.field, 'account')
    assert.equal(families[4].en.message, 'The account field must be defined')
  })

  test('public validators and field names: the /api/articles 422 in Chinese', async ({
    client,
    assert,
  }) => {
    const family = await inBoth(assert, (l) =>
      client.get('/api/articles').qs({ pageSize: 100000 }).headers(language(l))
    )
    assert.equal(family.code, 'E_VALIDATION_ERROR')
    assert.equal(family.zh.field, 'pageSize')
    // The field's name is translated inside the message too (validator.json `fields`).
    assert.include(family.zh.message, '每页条数')
    assert.notInclude(family.zh.message, 'pageSize')
  })

  test('429: refused logins in both languages, Retry-After kept', async ({ client, assert }) => {
    await createAdmin('hammered')
    const wrong = async (l: string) =>
      client
        .post('/api/auth/login')
        .headers({ 'accept-language': l })
        .json({ account: 'hammered', password: 'Wrong-1', captchaToken: await freshCredential() })
    for (let i = 0; i < 5; i++) await wrong('en')
    const family = await inBoth(assert, wrong)
    assert.equal(family.status, 429)
    assert.equal(family.code, 'E_TOO_MANY_REQUESTS')
  })

  test('plural grammar in English: "at least 1 item"', async ({ client, assert }) => {
    const admin = await seededAdmin()
    const tokens = await client
      .post('/api/auth/tokens')
      .json({ name: 'ci', permissions: [], expiresInDays: 30 })
      .loginAs(admin)
    tokens.assertStatus(422)
    const entry = tokens.body().errors.find((error: any) => error.field === 'permissions')
    assert.equal(entry.message, 'The permissions field must have at least 1 item')
  })

  test('user import: every row problem in the language asked for, dry run or refused', async ({
    client,
    assert,
  }) => {
    const admin = await seededAdmin()
    const csv = [
      'account,nickname,email,deptId,roles,status',
      '=cmd,One,,,,enabled',
      'x,Too short,,,,',
      'good2,,,424242,no_such_role,',
    ].join('\r\n')
    for (const dryRun of [true, false]) {
      const answers = await Promise.all(
        ['en', 'zh-CN'].map((l) =>
          client
            .post(`/api/admin/users/import?dryRun=${dryRun}`)
            .headers({ 'accept-language': l })
            .file('file', Buffer.from(csv), { filename: 'u.csv' })
            .loginAs(admin)
        )
      )
      const rows = answers.map((answer) =>
        dryRun ? answer.body().data.errors : answer.body().errors
      )
      assert.equal(answers[1].status(), answers[0].status())
      assert.isAtLeast(rows[0].length, 4)
      assert.deepEqual(
        rows[1].map((row: any) => `${row.row} ${row.field} ${row.code}`),
        rows[0].map((row: any) => `${row.row} ${row.field} ${row.code}`)
      )
      for (const row of rows[0]) assert.notMatch(row.message, CJK, row.message)
      for (const row of rows[1]) assert.match(row.message, CJK, row.message)
    }
  })

  test('an unsupported language falls back to English', async ({ client, assert }) => {
    const response = await client.get('/api/auth/me').headers({ 'accept-language': 'fr-FR' })
    response.assertStatus(401)
    assert.equal(response.body().errors[0].message, 'Authentication required')
  })

  test('both catalogs hold the same keys', ({ assert }) => {
    const keys = (value: unknown, prefix = ''): string[] =>
      value && typeof value === 'object'
        ? Object.entries(value).flatMap(([key, child]) => keys(child, `${prefix}${key}.`))
        : [prefix.slice(0, -1)]
    for (const file of ['errors.json', 'validator.json']) {
      const read = (locale: string) =>
        JSON.parse(readFileSync(app.languageFilesPath(locale, file), 'utf8'))
      // Field names (`shared.fields`) exist in Chinese only: in English a field is named by its key.
      const messages = (locale: string) =>
        keys(read(locale)).filter((key) => !key.startsWith('shared.fields.'))
      assert.sameMembers(messages('zh-CN'), messages('en'), file)
    }
  })

  test('every field named in Chinese is a field of the API document', async ({
    client,
    assert,
  }) => {
    const document = (await client.get('/api/openapi.json')).body()
    const text = JSON.stringify(document)
    const zh = JSON.parse(readFileSync(app.languageFilesPath('zh-CN', 'validator.json'), 'utf8'))
    for (const field of Object.keys(zh.shared.fields)) assert.include(text, `"${field}"`, field)
  })
})
