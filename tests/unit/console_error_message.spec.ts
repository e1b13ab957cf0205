import { test } from '@japa/runner'
import { pathToFileURL } from 'node:url'
import app from '@adonisjs/core/services/app'

/*
| The console's error text (console/src/i18n/errors.ts errorMessage): the server's message,
| already in the console's language, shown once; the code's own text only when the answer has
| none. Imported by path: the console is its own package.
*/
type Errors = {
  errorMessage(code: string | undefined, status: number, server?: string): string
  storeLocale(locale: string): void
}
const load = async (): Promise<Errors> =>
  import(pathToFileURL(app.makePath('console/src/i18n/errors.ts')).href)

test.group('Console errorMessage', (group) => {
  const stored = new Map<string, string>()
  group.setup(() => {
    const previous = (globalThis as any).localStorage
    ;(globalThis as any).localStorage = {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => stored.set(key, value),
    }
    return () => {
      ;(globalThis as any).localStorage = previous
    }
  })

  test('the server message once, in either language', async ({ assert }) => {
    const { errorMessage, storeLocale } = await load()
    storeLocale('zh')
    assert.equal(errorMessage('E_NOT_FOUND', 404, '资源不存在'), '资源不存在')
    storeLocale('en')
    assert.equal(
      errorMessage('E_TOO_MANY_REQUESTS', 429, 'Too many requests, try again later'),
      'Too many requests, try again later'
    )
  })

  test("the code's text when the answer has no message; the status when the code is unknown", async ({
    assert,
  }) => {
    const { errorMessage, storeLocale } = await load()
    storeLocale('zh')
    assert.equal(errorMessage('E_NOT_FOUND', 404), '未找到：可能已被删除。')
    assert.equal(errorMessage(undefined, 502), '请求失败（502）')
    storeLocale('en')
    assert.equal(errorMessage('E_NOT_FOUND', 404, ''), 'Not found: it may have been deleted.')
    assert.equal(errorMessage('E_SOMETHING_NEW', 500), 'Request failed (500)')
  })
})
