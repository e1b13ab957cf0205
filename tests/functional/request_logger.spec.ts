import { test } from '@japa/runner'
import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import server from '@adonisjs/core/services/server'
import { Logger } from '@adonisjs/core/logger'
import { isolate } from '#tests/helpers/database'

/**
 * app/core/request_logger.ts: the server's contexts carry a logger whose pino child (bound to the
 * request id) is made on the request's first line, not on every request.
 */

/** The pino children made of the app logger while `work` runs. */
async function childrenMade<T>(work: () => Promise<T>) {
  const made: unknown[] = []
  const child = logger.pino.child
  logger.pino.child = function (this: typeof logger.pino, ...args: Parameters<typeof child>) {
    made.push(args[0])
    return child.apply(this, args)
  } as typeof child
  try {
    return { result: await work(), made }
  } finally {
    logger.pino.child = child
  }
}

/** A context as the server makes one for a request with this id. */
function contextFor(requestId: string) {
  const req = new IncomingMessage(new Socket())
  req.url = '/api/articles'
  req.method = 'GET'
  req.headers = { 'x-request-id': requestId }
  const res = new ServerResponse(req)
  return server.createHttpContext(
    server.createRequest(req, res),
    server.createResponse(req, res),
    app.container.createResolver()
  )
}

test.group('Request loggers', (group) => {
  isolate(group)

  test('a request that logs nothing makes no logger child', async ({ client, assert }) => {
    const { result, made } = await childrenMade(() => client.get('/api/articles'))
    result.assertStatus(200)
    assert.deepEqual(made, [])
  })

  test("a context's logger is the app logger's child bound to the request id, made on first use", async ({
    assert,
  }) => {
    const { result: ctx, made } = await childrenMade(async () => {
      const context = contextFor('rid-logger-1')
      assert.instanceOf(context.logger, Logger)
      // Asked before any line: the parent answers, no child yet.
      for (const level of ['trace', 'info', 'warn', 'fatal']) {
        assert.equal(context.logger.isLevelEnabled(level), logger.isLevelEnabled(level), level)
      }
      return context
    })
    assert.deepEqual(made, [])
    const { made: onFirstLine } = await childrenMade(async () => {
      ctx.logger.fatal({ probe: true }, 'request logger probe')
      ctx.logger.error('again')
    })
    assert.deepEqual(onFirstLine, [{ request_id: 'rid-logger-1' }])
    assert.deepEqual(ctx.logger.bindings(), { ...logger.bindings(), request_id: 'rid-logger-1' })
    assert.equal(Object.getPrototypeOf(ctx.logger.pino), logger.pino)
    assert.equal(ctx.logger.level, logger.level)
    // Its own children carry both bindings, as the framework's would.
    assert.deepEqual(ctx.logger.child({ step: 2 }).bindings(), {
      ...logger.bindings(),
      request_id: 'rid-logger-1',
      step: 2,
    })
  })
})
