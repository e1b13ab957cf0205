/*
| The benchmarks' own connection to the app's database (pg, or SQLite through node:sqlite), for
| what a client cannot do over HTTP: writing the data set fast and reading a slider's answer (it
| stands for the attacker's ~17 ms pixel solver). SQL is written with `?` placeholders.
*/
import { randomBytes } from 'node:crypto'
import { TAKE_ANSWER_SQL } from '../tests/helpers/captcha.js'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import pg from 'pg'

export type PgConnection = {
  host: string
  port: number
  user: string
  password: string
  database: string
}
export type DbConfig = { db: 'pg'; pg: PgConnection } | { db: 'sqlite'; sqliteFile: string }
export type BenchDb = {
  query: (sql: string, params?: unknown[]) => Promise<any[]>
  end: () => Promise<void>
}

/** The PostgreSQL server of the environment (PG_HOST, PG_PORT, PG_USER, PG_PASSWORD). */
export const pgConnection = (database: string): PgConnection => ({
  host: process.env.PG_HOST ?? '127.0.0.1',
  port: Number(process.env.PG_PORT ?? 5432),
  user: process.env.PG_USER ?? 'postgres',
  password: process.env.PG_PASSWORD ?? '',
  database,
})

/** Drops (when `fresh`) and creates the PostgreSQL database of `connection` when missing. */
/** The bench's database: BENCH_PG_DB (adonis_rbac_bench) on pg, tmp/bench.sqlite3 under `root` on SQLite. */
export const benchDbConfig = (db: 'pg' | 'sqlite', root: string): DbConfig =>
  db === 'pg'
    ? { db: 'pg', pg: pgConnection(process.env.BENCH_PG_DB ?? 'adonis_rbac_bench') }
    : { db: 'sqlite', sqliteFile: join(root, 'tmp/bench.sqlite3') }

/** The environment of a benchmarked server: production, fresh secrets, the bench's database, limits out of the way. */
export const benchAppEnv = (config: DbConfig, adminPassword: string) => ({
  ...process.env,
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  APP_KEY: randomBytes(32).toString('base64url'),
  JWT_SECRET: randomBytes(48).toString('base64url'),
  DB_CONNECTION: config.db,
  ...(config.db === 'pg'
    ? {
        PG_HOST: config.pg.host,
        PG_PORT: String(config.pg.port),
        PG_USER: config.pg.user,
        PG_PASSWORD: config.pg.password,
        PG_DB_NAME: config.pg.database,
      }
    : { SQLITE_FILE: config.sqliteFile }),
  // The captcha and search scenarios measure the work, not the per-address limits.
  LIMIT_CAPTCHA_PER_MINUTE: '1000000000',
  LIMIT_SEARCH_PER_MINUTE: '1000000000',
  ADMIN_ACCOUNT: 'admin',
  ADMIN_PASSWORD: adminPassword,
})

export async function ensurePgDatabase(connection: PgConnection, fresh = false) {
  const admin = new pg.Client({ ...connection, database: 'postgres' })
  await admin.connect()
  try {
    const name = `"${connection.database.replace(/"/g, '""')}"`
    if (fresh) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [
      connection.database,
    ])
    if (!rowCount) await admin.query(`CREATE DATABASE ${name}`)
  } finally {
    await admin.end()
  }
}

export function openDb(config: DbConfig): BenchDb {
  if (config.db === 'pg') {
    const pool = new pg.Pool({ ...config.pg, max: 2 })
    return {
      async query(sql, params = []) {
        let i = 0
        const { rows } = await pool.query(
          sql.replace(/\?/g, () => `$${++i}`),
          params
        )
        return rows
      },
      end: () => pool.end(),
    }
  }
  const sqlite = new DatabaseSync(config.sqliteFile, { timeout: 5000 })
  return {
    async query(sql, params = []) {
      const statement = sqlite.prepare(sql)
      const values = params as (string | number | null)[]
      return /^\s*select|\breturning\b/i.test(sql)
        ? statement.all(...values)
        : (statement.run(...values), [])
    },
    end: async () => sqlite.close(),
  }
}

/** The stored answer (x) of a slider challenge. */
export async function answerOf(db: BenchDb, captchaId: string) {
  const [row] = await db.query(TAKE_ANSWER_SQL.replace('$1', '?'), [captchaId])
  return Number(row.answer_x)
}
