import redis from '@adonisjs/redis/services/main'

/**
 * Empties the Redis database the limiter uses in tests (REDIS_DB in .env.test, 9 by default):
 * app processes started by a test write their counters there, outside any test transaction.
 */
export async function flushLimiterRedis() {
  await redis.connection().flushdb()
}
