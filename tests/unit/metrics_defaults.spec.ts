import { test } from '@japa/runner'

/*
| prom-client's default collectors start at the first scrape (app/services/operations/metrics.ts),
| so an instance nobody scrapes never runs their event-loop monitor. A fresh instance of the
| module (its own registry) shows it whatever other tests scraped before.
*/
test('the default process metrics start with the first scrape, not when the module loads', async ({
  assert,
}) => {
  const url = new URL('../../app/services/operations/metrics.ts', import.meta.url)
  url.search = 'fresh'
  const { registry, exposition } = await import(url.href)
  assert.isUndefined(registry.getSingleMetric('nodejs_eventloop_lag_seconds'))
  const text = await exposition()
  assert.include(text, 'nodejs_eventloop_lag_seconds')
  assert.include(text, 'process_cpu_user_seconds_total')
})
