import type { Counter, Histogram } from 'prom-client'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'

/**
 * The Prometheus metrics of this process (GET /api/metrics, docs/operations.md, "Metrics").
 * Every label has a bounded set of values: route patterns (never a raw URL), methods, status
 * codes, login outcomes, connection names. Counters are per process; Prometheus sums instances.
 *
 * Without METRICS_SECRET at boot nobody can scrape, so nothing is counted: prom-client is not
 * loaded (2 MB of heap with the @opentelemetry/api it imports) and every counter below is a no-op
 * (the request histogram cost every request 1-2 us).
 */
const prom = env.get('METRICS_SECRET') ? await import('prom-client') : null

/** null while metrics are off. */
export const registry = prom && new prom.Registry()
const registers = registry ? [registry] : []

/**
 * The scrape: its content type and text, or null while metrics are off. prom-client's default
 * collectors (CPU, memory, GC, event loop) start at the first scrape: their event-loop monitor
 * wakes the process 100 times a second, which an instance nobody scrapes would pay for nothing
 * (idle: 17 against 1 CPU tick in 30 s).
 */
let defaultsStarted = false
export async function exposition() {
  if (!prom || !registry) return null
  if (!defaultsStarted) prom.collectDefaultMetrics({ register: registry })
  defaultsStarted = true
  return { contentType: registry.contentType, text: await registry.metrics() }
}

/** What a counter or the histogram is while metrics are off. */
const off = { inc() {}, observe() {} }

/** Answered requests by route pattern ("unmatched" when no route matched) and status. */
export const httpRequests: Pick<Histogram<'method' | 'route' | 'status'>, 'observe'> = prom
  ? new prom.Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the request to the end of its answer, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    })
  : off

/** A counter with one label, in this registry. */
const counter = <Label extends string>(
  name: string,
  help: string,
  label: Label
): Pick<Counter<Label>, 'inc'> =>
  prom ? new prom.Counter({ name, help, labelNames: [label] as const, registers }) : off

/** 429 answers (login, password, captcha and search limits), by route pattern. */
export const rateLimitRefusals = counter(
  'rate_limit_refusals_total',
  'Requests refused with 429 by a rate limit, by route pattern',
  'route'
)

/** Login attempts by the outcome the login log records (app/models/login_log.ts). */
export const loginAttempts = counter('login_attempts_total', 'Login attempts by outcome', 'outcome')

/** The access snapshot cache (app/auth/access_snapshot.ts): hit, or miss (one statement). */
export const snapshotLookups = counter(
  'access_snapshot_cache_total',
  'Access snapshot lookups by result (hit: cached for the current access version)',
  'result'
)

type TarnPool = {
  max: number
  numUsed(): number
  numFree(): number
  numPendingAcquires(): number
  numPendingCreates(): number
}

/**
 * The knex (tarn) pool of every Lucid connection opened so far, read at scrape time through
 * Lucid's `pool` / `readPool` getters and tarn's documented counters: `read` only when a
 * replica gives the connection a pool of its own.
 */
if (prom)
  new prom.Gauge({
    name: 'db_pool_connections',
    help: 'Database pool connections by Lucid connection, side and state (used, free, pending_acquires, pending_creates, max)',
    labelNames: ['connection', 'side', 'state'] as const,
    registers,
    collect() {
      this.reset()
      for (const [name, { connection }] of db.manager.connections) {
        if (!connection) continue
        const sides: [string, TarnPool | null][] = [['write', connection.pool as TarnPool | null]]
        if (connection.readPool !== connection.pool) {
          sides.push(['read', connection.readPool as TarnPool | null])
        }
        for (const [side, pool] of sides) {
          if (!pool) continue
          const set = (state: string, value: number) =>
            this.set({ connection: name, side, state }, value)
          set('used', pool.numUsed())
          set('free', pool.numFree())
          set('pending_acquires', pool.numPendingAcquires())
          set('pending_creates', pool.numPendingCreates())
          set('max', pool.max)
        }
      }
    },
  })
