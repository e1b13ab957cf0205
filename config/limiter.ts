import env from '#start/env'
import { defineConfig, stores } from '@adonisjs/limiter'

/**
 * The database store (table rate_limits) is the default so that every instance on one database
 * shares the counters. `redis` (opt-in) keeps the counters out of the database, shared by every
 * instance on one Redis; when Redis is down, limited requests fail closed (503). `memory` is for a
 * single process only.
 */
const limiterConfig = defineConfig({
  default: env.get('LIMITER_STORE', 'database'),
  stores: {
    // Expired rows are swept by the store itself (every 5 minutes, rows expired over an hour).
    database: stores.database({ tableName: 'rate_limits', clearExpiredByTimeout: true }),
    redis: stores.redis({ connectionName: 'main' }),
    memory: stores.memory({}),
  },
})

export default limiterConfig

declare module '@adonisjs/limiter/types' {
  export interface LimitersList extends InferLimiters<typeof limiterConfig> {}
}
