import pg from 'pg'
import { execFileSync } from 'node:child_process'
import app from '@adonisjs/core/services/app'
import env from '#start/env'

export const pgConnection = (database: string) => ({
  host: env.get('PG_HOST', '127.0.0.1'),
  port: env.get('PG_PORT', 5432),
  user: env.get('PG_USER', 'postgres'),
  password: env.get('PG_PASSWORD', ''),
  database,
})

/** Creates the PostgreSQL database `name` when it does not exist yet. */
export async function ensurePgDatabase(name: string) {
  const admin = new pg.Client(pgConnection('postgres'))
  await admin.connect()
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])
    if (!rowCount) await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`)
  } finally {
    await admin.end()
  }
}

/**
 * A PostgreSQL database of its own for tests that run separate app processes (fault injection,
 * several instances): created when missing, migrated fresh and seeded through the real ace
 * commands. Returns a pg client on it (the caller ends it).
 */
export async function freshPgDatabase(name: string) {
  await ensurePgDatabase(name)
  const childEnv = { ...process.env, NODE_ENV: 'test', DB_CONNECTION: 'pg', PG_DB_NAME: name }
  for (const args of [['migration:fresh', '--force'], ['db:seed']]) {
    execFileSync(process.execPath, ['ace', ...args], {
      cwd: app.makePath(),
      env: childEnv,
      stdio: 'pipe',
    })
  }
  const client = new pg.Client(pgConnection(name))
  await client.connect()
  // As in the shared test database: the seeded administrator's forced change is done.
  await client.query('UPDATE users SET password_change_required = false')
  return client
}
