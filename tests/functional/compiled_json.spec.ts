import { test } from '@japa/runner'
import User from '#models/user'
import { buildDocument } from '#openapi/document'
import { ArticleFactory } from '#database/factories/article_factory'
import { isolate } from '#tests/helpers/database'
import { seededAdmin, superRole } from '#tests/helpers/rbac'
import { compiledBodies } from '#tests/helpers/compiled_json_check'

/**
 * Every answer of the functional suite written by a compiled stringifier is compared with the
 * safe stringify's bytes (tests/helpers/compiled_json_check.ts, from tests/bootstrap.ts). Here:
 * every read of the document, as the super administrator, over rows holding what JSON escapes
 * (quotes, backslashes, control characters, line separators, characters outside the BMP), nulls,
 * dates and nested arrays (an account's roles); each one whose body is enveloped in `data` was
 * compiled and compared (a different byte fails the request's test).
 */
/**
 * Reads that write their body themselves, not through ctx.serialize: text kept per version (the
 * public list, /me, the notices bell), or a small object returned as is (the safe stringify writes it).
 */
const OWN_BYTES = [
  'GET /api/articles',
  'GET /api/auth/me',
  'GET /api/auth/notices',
  'GET /api/admin/access/changes',
  'GET /api/admin/access/users/:id',
  'GET /api/auth/features',
  'GET /api/health',
  'GET /api/health/live',
  'GET /api/health/ready',
]
const ODD = 'Zoë "q" \\ \t\n\u0001 \u2028\u2029 漢字 😀'

test.group('Compiled JSON: every read of the document, byte for byte', (group) => {
  isolate(group)

  test('the same bytes as the safe stringify for every enveloped answer', async ({
    client,
    assert,
  }) => {
    const admin = await seededAdmin()
    const odd = await User.create({
      account: 'compiled.json',
      nickname: ODD,
      email: null,
      password: 'Compiled-Json-1!',
      status: 'enabled',
    })
    await odd.related('roles').attach([(await superRole()).id])
    await ArticleFactory.merge({ title: ODD, summary: ODD, internalNote: null }).create()

    const { document } = await buildDocument({ title: 'compiled json', version: '0' })
    const enveloped: string[] = []
    const notCompiled: string[] = []
    for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
      const operation = item.get
      const schema = operation?.responses?.['200']?.content?.['application/json']?.schema
      if (!schema?.properties?.data) continue
      const key = `GET ${path.replace(/\{(\w+)\}/g, ':$1')}`
      const before = compiledBodies.compared.get(key) ?? 0
      const url = path.replace(/\{\w+\}/g, '1')
      const secured = (operation.security ?? document.security ?? []).length > 0
      const request = client.get(url)
      const response = await (secured ? request.loginAs(admin) : request)
      if (response.status() !== 200) continue
      enveloped.push(key)
      if ((compiledBodies.compared.get(key) ?? 0) === before) notCompiled.push(key)
    }
    assert.isAbove(enveloped.length, 20)
    assert.sameMembers(notCompiled, OWN_BYTES)
  })
})
