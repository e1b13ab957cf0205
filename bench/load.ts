/*
| One autocannon run, in its own process so the load generator does not share the server's
| event loop (nor run.ts's). Input: autocannon options as JSON in argv[2]. Output: one JSON line
| with the figures run.ts reads (LoadResult).
*/
import autocannon from 'autocannon'

export type LoadResult = {
  requestsPerSecond: number
  p50: number
  p99: number
  total: number
  non2xx: number
  errors: number
  statusCodes: Record<string, { count: number }>
}

const options = JSON.parse(process.argv[2])
const result = await autocannon({ ...options, renderProgressBar: false })
const figures: LoadResult = {
  requestsPerSecond: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  total: result.requests.total,
  non2xx: result.non2xx,
  errors: result.errors + result.timeouts,
  statusCodes: result.statusCodeStats,
}
process.stdout.write(JSON.stringify(figures) + '\n')
