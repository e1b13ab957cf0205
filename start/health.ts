/*
| Readiness checks (@adonisjs/core/health), run by GET /api/health/ready (and its alias
| /api/health). Liveness (GET /api/health/live) runs none of them: it does no I/O.
*/
import { BaseCheck, HealthChecks, Result } from '@adonisjs/core/health'
import { DbCheck } from '@adonisjs/lucid/database'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import { PUBLIC_CONNECTION } from '#config/database'
import { isDraining } from '#core/operations/lifecycle'

/** Fails from the moment SIGTERM arrives, so the load balancer stops routing to this instance. */
class DrainCheck extends BaseCheck {
  name = 'Shutdown'
  async run() {
    return isDraining() ? Result.failed('draining after SIGTERM') : Result.ok('accepting requests')
  }
}

/**
 * The replica behind PG_READ_HOST: Lucid's DbCheck pings the write side of a connection, so the
 * public connection's read side gets its own ping.
 */
class ReplicaCheck extends BaseCheck {
  name = 'Database health check (public reads, replica)'
  async run() {
    try {
      await db.connection(PUBLIC_CONNECTION).getReadClient().raw('SELECT 1')
      return Result.ok('Successfully connected to the replica')
    } catch (error) {
      return Result.failed((error as Error).message || 'Connection failed', error as Error)
    }
  }
}

const redisEnabled = env.get('LIMITER_STORE', 'database') === 'redis'
const replicaEnabled = !!env.get('PG_READ_HOST') && env.get('DB_CONNECTION', 'sqlite') === 'pg'

/**
 * Built per run: a check holds the query client current at its creation (in the test suite a
 * global transaction's, which ends with its test). Creating three objects per probe costs nothing.
 */
export async function healthChecks() {
  const checks: BaseCheck[] = [new DrainCheck(), new DbCheck(db.connection())]
  if (replicaEnabled) checks.push(new ReplicaCheck())
  if (redisEnabled) {
    // Imported here: '@adonisjs/redis' loads ioredis, which a process without Redis never needs.
    const { RedisCheck } = await import('@adonisjs/redis')
    const { default: redis } = await import('@adonisjs/redis/services/main')
    checks.push(new RedisCheck(redis.connection()))
  }
  return new HealthChecks().register(checks)
}

/**
 * A load balancer's probe reuses a healthy run for READY_REUSE_MS (one statement saved per probe),
 * unless a request failed with a 5xx since (the exception handler calls readinessSuspect()).
 * Draining is checked on every probe.
 */
export const READY_REUSE_MS = 1000
let healthyAt = -Infinity
export const recentlyHealthy = () => !isDraining() && Date.now() - healthyAt < READY_REUSE_MS
export const markHealthy = () => (healthyAt = Date.now())
export const readinessSuspect = () => (healthyAt = -Infinity)
