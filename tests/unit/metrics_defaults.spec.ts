import { test } from '@japa/runner'
import env from '#start/env'

/*
| The metrics module decides at load (app/core/operations/metrics.ts): fresh instances of it
| (their own registry) show what a process booted with or without METRICS_SECRET gets, whatever
| other tests counted or scraped before.
*/
const freshMetrics = (tag: string) => {
  const url = new URL('../../app/core/operations/metrics.ts', import.meta.url)
  url.search = tag
  return import(url.href)
}

test('the default process metrics start with the first scrape, not when the module loads', async ({
  assert,
}) => {
  const { registry, exposition } = await freshMetrics('on')
  assert.isUndefined(registry.getSingleMetric('nodejs_eventloop_lag_seconds'))
  const { text } = await exposition()
  assert.include(text, 'nodejs_eventloop_lag_seconds')
  assert.include(text, 'process_cpu_user_seconds_total')
})

test('without METRICS_SECRET at boot nothing is counted and there is nothing to scrape', async ({
  assert,
  cleanup,
}) => {
  const before = env.get('METRICS_SECRET')
  env.set('METRICS_SECRET', undefined as any)
  delete process.env.METRICS_SECRET
  cleanup(() => env.set('METRICS_SECRET', before as any))
  const metrics = await freshMetrics('off')
  assert.isNull(metrics.registry)
  assert.isNull(await metrics.exposition())
  metrics.httpRequests.observe({ method: 'GET', route: '/api/health', status: 200 }, 0.001)
  metrics.loginAttempts.inc({ outcome: 'success' })
  assert.notInstanceOf(metrics.httpRequests, (await import('prom-client')).Histogram)
})
