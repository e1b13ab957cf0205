/*
| One autocannon run, in its own process so the load generator does not share the server's
| event loop. Input: a JSON config as argv[2] (autocannon options). Output: one JSON line with the
| figures the benchmark reads.
*/
import autocannon from 'autocannon'

const options = JSON.parse(process.argv[2])
const result = await autocannon({ ...options, renderProgressBar: false })
process.stdout.write(
  JSON.stringify({
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    statusCodes: result.statusCodeStats,
  }) + '\n'
)
