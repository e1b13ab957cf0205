import { test } from '@japa/runner'
import { Exception } from '@adonisjs/core/exceptions'
import { ApiException, notFound, tooManyRequests } from '#exceptions/api_exception'

test.group('ApiException: an answer built without the Error constructor', () => {
  test('is an Error and an Exception, carries status, code and headers, and has no stack', ({
    assert,
  }) => {
    const refused = tooManyRequests(1.2, 10)
    for (const type of [ApiException, Exception, Error]) assert.instanceOf(refused, type)
    assert.include(refused, { status: 429, code: 'E_TOO_MANY_REQUESTS', name: 'ApiException' })
    assert.deepEqual(refused.headers, {
      'Retry-After': '2',
      'RateLimit-Limit': '10',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '2',
    })
    assert.isUndefined(refused.stack)
    assert.equal(String(notFound()), 'ApiException [E_NOT_FOUND]: Resource not found')
  })

  test('thrown and caught like any error', async ({ assert }) => {
    await assert.rejects(async () => {
      throw notFound('articleNotFound')
    }, 'Article not found')
  })
})
