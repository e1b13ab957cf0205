/*
| node --import @poppinss/ts-exec bench/operations_cost.ts: what the metrics and the access log
| add to one request (docs/operations.md, "Metrics"), as microseconds per call in a tight loop:
| the histogram observe with the label values a request has, the access-log line (pino, the app's
| redaction, a synchronous write to /dev/null) and the same line with LOG_LEVEL=silent, and how
| the work is called: the response's `close` listener the access-log middleware sets, against the
| delivery of AdonisJS's http:request_completed event it replaced (Emittery, awaited one by one;
| on-finished's listeners came on top).
*/
import { EventEmitter } from 'node:events'
import Emittery from 'emittery'
import { Histogram, Registry } from 'prom-client'
import { pino } from 'pino'

const routes = Array.from({ length: 60 }, (_, i) => `/api/admin/resource${i}/:id`)

/** Awaits only what returns a promise (an await of a plain value would cost a microtask). */
async function bench(name: string, calls: number, fn: (i: number) => unknown) {
  for (let i = 0; i < calls / 10; i++) {
    const result = fn(i)
    if (result instanceof Promise) await result
  }
  const start = process.hrtime.bigint()
  for (let i = 0; i < calls; i++) {
    const result = fn(i)
    if (result instanceof Promise) await result
  }
  const micros = Number(process.hrtime.bigint() - start) / calls / 1000
  console.log(`${name.padEnd(52)} ${micros.toFixed(2)} µs`)
}

const histogram = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'bench',
  labelNames: ['method', 'route', 'status'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [new Registry()],
})
await bench('histogram observe (60 routes x 3 statuses)', 1_000_000, (i) =>
  histogram.observe({ method: 'GET', route: routes[i % 60], status: [200, 403, 404][i % 3] }, 0.002)
)

const redact = { paths: ['password', '*.password', 'token', '*.token'], censor: '[redacted]' }
const line = (i: number) => ({
  method: 'GET',
  route: routes[i % 60],
  status: 200,
  ms: 1.3,
  requestId: 'b3c1e0a2f4d5c6b7a8e9',
  userId: i,
})
const info = pino({ level: 'info', redact }, pino.destination({ dest: '/dev/null', sync: true }))
const child = info.child({ request_id: 'b3c1e0a2f4d5c6b7a8e9' })
await bench('access-log line, info (sync write to /dev/null)', 200_000, (i) =>
  child.info(line(i), 'request')
)
const silent = pino({ level: 'silent' })
await bench('access-log line, LOG_LEVEL=silent', 1_000_000, (i) => {
  if (silent.isLevelEnabled('info')) silent.info(line(i), 'request')
})

await bench('a once("close") listener set and called', 1_000_000, () => {
  const response = new EventEmitter()
  response.once('close', () => {})
  response.emit('close')
})

const emitter = new Emittery()
emitter.on('http:request_completed', () => {})
await bench('http:request_completed delivery (Emittery)', 200_000, () =>
  emitter.emit('http:request_completed', {})
)
