import env from '#start/env'
import { defineConfig, stores } from '@adonisjs/limiter'

/**
 * The database store (table rate_limits) is the default so that every instance on one database
 * shares the counters. `redis` (opt-in) keeps the counters out of the database, shared by every
 * instance on one Redis; when Redis is down, limited requests fail closed (503). `memory` is for a
 * single process only.
 */
export const limiterStore = env.get('LIMITER_STORE', 'database')
const available = {
  // Expired rows are swept by the store itself (every 5 minutes, rows expired over an hour).
  database: stores.database({ tableName: 'rate_limits', clearExpiredByTimeout: true }),
  redis: stores.redis({ connectionName: 'main' }),
  memory: stores.memory({}),
}
/**
 * Every store listed is resolved at boot, and resolving `redis` loads ioredis: it is listed only
 * when chosen. The type keeps all three, as the limiter's types expect one fixed list.
 */
const { redis, ...withoutRedis } = available
const limiterConfig = defineConfig({
  default: limiterStore,
  stores: (limiterStore === 'redis'
    ? { ...withoutRedis, redis }
    : withoutRedis) as typeof available,
})

export default limiterConfig

declare module '@adonisjs/limiter/types' {
  export interface LimitersList extends InferLimiters<typeof limiterConfig> {}
}
