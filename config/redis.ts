import env from '#start/env'
import type { RedisConnectionConfig } from '@adonisjs/redis/types'

/**
 * Redis is optional: only LIMITER_STORE=redis opens a connection (connections are created on first
 * use). Cluster or sentinel: replace host/port with `clusters` or `sentinels` + `name` (docs/operations.md,
 * "Running several instances").
 *
 * The limiter must fail closed and fast when Redis is gone: with no per-command retry a command
 * sent while the connection is down fails at the next failed connection attempt, and none waits
 * longer than commandTimeout (503 in the error contract either way). The connection itself keeps
 * retrying with no cap on attempts, so the instance recovers by itself when Redis is back.
 *
 * A plain object, not `defineConfig` from '@adonisjs/redis': that import loads ioredis into every
 * process at boot, used or not (with the limiter's Redis store, config/limiter.ts: 16 MB of private
 * memory after boot); the provider loads it on first use.
 */
const redisConfig = {
  connection: 'main' as const,
  connections: {
    main: {
      host: env.get('REDIS_HOST', '127.0.0.1'),
      port: env.get('REDIS_PORT', 6379),
      password: env.get('REDIS_PASSWORD') || undefined,
      db: env.get('REDIS_DB', 0),
      keyPrefix: '',
      maxRetriesPerRequest: 0,
      commandTimeout: 1000,
      connectTimeout: 2000,
      retryStrategy: (times: number) => Math.min(times * 100, 2000),
    } satisfies RedisConnectionConfig,
  },
}

export default redisConfig

declare module '@adonisjs/redis/types' {
  export interface RedisConnections extends InferConnections<typeof redisConfig> {}
}
