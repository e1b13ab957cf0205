import { test } from '@japa/runner'
import diagnostics_channel from 'node:diagnostics_channel'
import router from '@adonisjs/core/services/router'
import server from '@adonisjs/core/services/server'
import app from '@adonisjs/core/services/app'
import { isDirect } from '#core/direct_calls'
import { isolate } from '#tests/helpers/database'
import { createAdmin, sessionToken } from '#tests/helpers/auth'

/**
 * app/core/direct_calls.ts rewrites the framework's middleware and route-handler descriptors so
 * that a request builds its classes without the container. These fail when the framework stops
 * keeping those descriptors where that module finds them, or calls them some other way.
 */

/**
 * The classes the container constructed while `work` ran (fold's tracing channel): resolutions of
 * a class nothing is bound to, which the rewrite does without the container. Bound ones (the
 * CORS middleware, the test client's auth manager) stay the container's.
 */
async function containerMakes<T>(work: () => Promise<T>) {
  const names: string[] = []
  const start = (message: { binding: unknown }) => {
    const binding = message.binding
    if (typeof binding === 'function' && !app.container.hasBinding(binding as never)) {
      names.push(binding.name)
    }
  }
  const channel = diagnostics_channel.tracingChannel('adonisjs.container.make')
  const handlers = { start, end() {}, asyncStart() {}, asyncEnd() {}, error() {} } as any
  channel.subscribe(handlers)
  try {
    return { result: await work(), names }
  } finally {
    channel.unsubscribe(handlers)
  }
}

test.group('Middleware and controllers called without the container', (group) => {
  isolate(group)

  test('every class middleware and controller descriptor is rewritten', ({ assert }) => {
    const descriptors = [...server.getMiddlewareList()]
    for (const routes of Object.values(router.toJSON())) {
      for (const route of routes) {
        descriptors.push(...[...route.middleware.all()].filter((one) => typeof one !== 'function'))
        if (typeof route.handler !== 'function') descriptors.push(route.handler as any)
      }
    }
    assert.isAbove(descriptors.length, 100)
    assert.deepEqual(
      descriptors.filter((descriptor) => !isDirect(descriptor)).map((one: any) => one.name),
      []
    )
  })

  test('{name}: answered without a container resolution')
    .with([
      { name: 'readiness', path: '/api/health', auth: false },
      { name: 'public list', path: '/api/articles?pageNum=1&pageSize=10', auth: false },
      { name: '/me (auth middleware, injected controller)', path: '/api/auth/me', auth: true },
    ])
    .run(async ({ client, assert }, { path, auth }) => {
      const headers: Record<string, string> = {}
      if (auth) {
        const user = await createAdmin('direct.caller')
        headers.authorization = `Bearer ${(await sessionToken(user.id, user.tokenVersion)).token}`
      }
      // The first request of a route decides; the second is the steady state.
      for (let i = 0; i < 2; i++) {
        const { result, names } = await containerMakes(() => client.get(path).headers(headers))
        result.assertStatus(200)
        assert.deepEqual(names, [])
      }
    })

  test('the count sees a resolution through the container', async ({ assert }) => {
    // The control for the zeros above.
    const { default: HealthController } = await import('#controllers/health_controller')
    const { names } = await containerMakes(() => app.container.make(HealthController))
    assert.deepEqual(names, ['HealthController'])
  })
})
