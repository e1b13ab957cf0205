import { mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { defineConfig } from '@adonisjs/lucid'

/**
 * better-sqlite3 is an optional dependency: `npm install` brings it (SQLite, the zero-setup default),
 * a PostgreSQL-only install (`npm uninstall better-sqlite3 --omit=dev` in build/, as the container
 * image does) leaves it out, and with DB_CONNECTION=pg nothing loads it (knex loads a driver only when its connection is
 * first used). With SQLite chosen and the package missing: one line, not knex's stack trace.
 */
if (env.get('DB_CONNECTION', 'sqlite') === 'sqlite') {
  try {
    createRequire(import.meta.url).resolve('better-sqlite3')
  } catch {
    console.error(
      'DB_CONNECTION=sqlite needs the optional package better-sqlite3, which this install left out: run `npm install` (optional dependencies included) or set DB_CONNECTION=pg'
    )
    process.exit(1)
  }
}

const sqliteFile = app.makePath(env.get('SQLITE_FILE', 'tmp/db.sqlite3'))
// A fresh clone has no tmp/ yet; SQLite creates the file, not its folder.
if (env.get('DB_CONNECTION', 'sqlite') === 'sqlite')
  mkdirSync(dirname(sqliteFile), { recursive: true })

const migrations = { naturalSort: true, paths: ['database/migrations'] }
// Models are written by hand (app/models); no generated database/schema.ts.
const schemaGeneration = { enabled: false }
// Emit a `db:query` event per query: used by the tests and the benchmark to count round trips.
const debug = app.inTest || env.get('DB_QUERY_EVENTS', false)

const connection = env.get('DB_CONNECTION', 'sqlite')

/**
 * The public module reads through its own connection (docs/public-modules.md, "Isolation"):
 * a small pool of its own, so anonymous traffic can never take the connections the guard and the
 * admin API need, a statement timeout on PostgreSQL (a slow public query is cut and answered
 * 503), and read-only on SQLite. Nothing else uses it.
 */
export const PUBLIC_CONNECTION = `${connection}_public` as const

/**
 * PG_PREPARED_STATEMENTS=false (behind PgBouncer < 1.21 in transaction mode): no statement of
 * ours or of a library may be named, or it would be prepared on one server connection and looked
 * up on another. The limiter's database store names its upsert itself, so the names are stripped
 * on the connection, for every query, in this one place (app/core/prepared_query.ts names ours).
 */
const namedStatements = env.get('PG_PREPARED_STATEMENTS', true)
function withoutStatementNames(conn: any, done: (error: Error | null, conn: any) => void) {
  const query = conn.query
  conn.query = function (config: any, ...rest: any[]) {
    if (
      config &&
      typeof config === 'object' &&
      typeof config.submit !== 'function' &&
      config.name
    ) {
      const { name, ...unnamed } = config
      return query.call(this, unnamed, ...rest)
    }
    return query.call(this, config, ...rest)
  }
  done(null, conn)
}
const pgPoolHooks = namedStatements ? {} : { afterCreate: withoutStatementNames }

const pgConnection = {
  host: env.get('PG_HOST', '127.0.0.1'),
  port: env.get('PG_PORT', 5432),
  user: env.get('PG_USER', 'postgres'),
  password: env.get('PG_PASSWORD', ''),
  database: env.get('PG_DB_NAME', 'adonis_rbac'),
}

/**
 * PG_READ_HOST: the public module's reads go to a streaming replica (Lucid's read/write
 * connections on the public connection; it never writes). Nothing else reads there: the guard,
 * the access snapshot, the captcha, the limiter and the admin API stay on the primary, so replica
 * lag can delay a newly published article but never revive a revoked token.
 */
const readHost = env.get('PG_READ_HOST')
const publicPg = {
  ...pgConnection,
  application_name: 'public',
  // Server-side: PostgreSQL cancels the statement itself (SQLSTATE 57014 -> 503).
  statement_timeout: env.get('PUBLIC_STATEMENT_TIMEOUT_MS', 2000),
} as any
const publicReplicas = readHost
  ? {
      replicas: {
        read: {
          connection: [{ ...publicPg, host: readHost, port: env.get('PG_READ_PORT', 5432) }],
        },
        write: { connection: publicPg },
      },
    }
  : { connection: publicPg }

const dbConfig = defineConfig({
  connection,
  connections: {
    sqlite: {
      client: 'better-sqlite3',
      connection: {
        filename: sqliteFile,
      },
      useNullAsDefault: true,
      // SQLite leaves foreign keys off unless asked; WAL + busy_timeout let a second process
      // (another instance, an ace command) write without "database is locked" errors.
      pool: {
        afterCreate: (conn: any, done: (error: Error | null, conn: any) => void) => {
          conn.pragma('foreign_keys = ON')
          conn.pragma('journal_mode = WAL')
          conn.pragma('busy_timeout = 5000')
          done(null, conn)
        },
      },
      debug,
      migrations,
      schemaGeneration,
      seeders: { paths: ['database/seeders'] },
    },
    pg: {
      client: 'pg',
      connection: pgConnection,
      pool: { min: 0, max: env.get('PG_POOL_MAX', 10), ...pgPoolHooks },
      debug,
      migrations,
      schemaGeneration,
      seeders: { paths: ['database/seeders'] },
    },
    sqlite_public: {
      client: 'better-sqlite3',
      connection: { filename: sqliteFile },
      useNullAsDefault: true,
      pool: {
        afterCreate: (conn: any, done: (error: Error | null, conn: any) => void) => {
          conn.pragma('query_only = ON')
          conn.pragma('busy_timeout = 5000')
          done(null, conn)
        },
      },
      debug,
    },
    pg_public: {
      client: 'pg',
      ...publicReplicas,
      // Waiting longer than this for a connection answers 503 instead of queueing without end.
      pool: {
        min: 0,
        max: env.get('PUBLIC_POOL_MAX', 4),
        acquireTimeoutMillis: 5000,
        ...pgPoolHooks,
      },
      debug,
    },
  },
})

export default dbConfig
