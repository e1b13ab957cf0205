/*
| User import at 10,000 rows (docs/admin-modules.md, "User import"): time, server CPU and the
| server's peak RSS of a dry run (CSV, and the same rows as XLSX), of a real import refused by its
| last row (an account that exists: every row checked, no password hashed) and of a real import of
| one generated CSV.
|   node --import @poppinss/ts-exec bench/user_import.ts        (npm run bench:import)
| A server of its own on SQLite (IMPORT_DB=pg: PostgreSQL, database adonis_rbac_bench_import,
| recreated), NODE_ENV=test settings (a cheap proof of work); IMPORT_ROWS (default 10000).
*/
import { execFileSync, spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { login } from './client.js'
import { answerOf, ensurePgDatabase, openDb, pgConnection, type DbConfig } from './db.js'
import { freePort, waitUntilUp } from './http.js'
import { cpuMsOf, rssMbOf } from './processes.js'
import { xlsx } from '#tests/helpers/xlsx'

const ROOT = new URL('..', import.meta.url).pathname
const DB_FILE = 'tmp/bench-import.sqlite3'
const ROWS = Number(process.env.IMPORT_ROWS ?? 10_000)
const PASSWORD = 'Bench-Import-Passw0rd!'
const config: DbConfig =
  process.env.IMPORT_DB === 'pg'
    ? { db: 'pg', pg: pgConnection('adonis_rbac_bench_import') }
    : { db: 'sqlite', sqliteFile: `${ROOT}${DB_FILE}` }

rmSync(`${ROOT}${DB_FILE}`, { force: true })
if (config.db === 'pg') await ensurePgDatabase(config.pg, true)
const env = {
  ...process.env,
  NODE_ENV: 'test',
  DB_CONNECTION: config.db,
  SQLITE_FILE: DB_FILE,
  ...(config.db === 'pg'
    ? { PG_DB_NAME: config.pg.database, PG_HOST: config.pg.host, PG_PORT: String(config.pg.port) }
    : {}),
  LIMITER_STORE: 'database',
  ADMIN_ACCOUNT: 'admin',
  ADMIN_PASSWORD: PASSWORD,
  LOG_LEVEL: 'warn',
}
execFileSync(process.execPath, ['ace', 'migration:run', '--force'], { cwd: ROOT, env })
execFileSync(process.execPath, ['ace', 'db:seed'], { cwd: ROOT, env })
const db = openDb(config)
// The seeded administrator's first-sign-in password change is not what is measured here.
await db.query('UPDATE users SET password_change_required = ? WHERE account = ?', [
  config.db === 'pg' ? false : 0,
  'admin',
])
const port = await freePort()
const child = spawn(process.execPath, ['--import', '@poppinss/ts-exec', 'bin/server.ts'], {
  cwd: ROOT,
  env: { ...env, HOST: '127.0.0.1', PORT: String(port) },
  stdio: ['ignore', 'inherit', 'inherit'],
})
const url = `http://127.0.0.1:${port}`
await waitUntilUp(url, '/api/health/live')
const token = await login(url, (id) => answerOf(db, id), 'admin', PASSWORD)

const header = ['account', 'nickname', 'email', 'deptId', 'roles', 'status']
const rows = Array.from({ length: ROWS }, (_, i) => [
  `imp${i}`,
  `Imp ${i}`,
  `imp${i}@example.test`,
  '',
  '',
  'enabled',
])
const csvOf = (lines: string[][]) => [header, ...lines].map((cells) => cells.join(',')).join('\r\n')
const csv = csvOf(rows)
// The last row names the seeded administrator: refused (422) after every row was checked.
const refusedCsv = csvOf([...rows.slice(0, -1), ['admin', '', '', '', '', 'enabled']])
const book = xlsx([header, ...rows], { sharedStrings: true })
const CSV = { type: 'text/csv', name: 'users.csv' }
const XLSX = { type: 'application/octet-stream', name: 'users.xlsx' }

/** One import request: its status, wall ms, server CPU ms and the server's peak RSS (MB). */
async function measure(dryRun: boolean, file: string | Buffer = csv, kind = CSV) {
  const form = new FormData()
  form.append('file', new Blob([file], { type: kind.type }), kind.name)
  const cpuBefore = cpuMsOf(child.pid!)
  let peak = rssMbOf(child.pid!)
  const sampler = setInterval(() => (peak = Math.max(peak, rssMbOf(child.pid!))), 25)
  const started = performance.now()
  const answer = await fetch(`${url}/api/admin/users/import?dryRun=${dryRun}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  await answer.arrayBuffer()
  const ms = performance.now() - started
  clearInterval(sampler)
  return {
    status: answer.status,
    wallMs: Math.round(ms),
    serverCpuMs: Math.round(cpuMsOf(child.pid!) - cpuBefore),
    rssAfterMb: Math.round(rssMbOf(child.pid!)),
    rssPeakMb: Math.round(peak),
  }
}

try {
  const idle = Math.round(rssMbOf(child.pid!))
  const dry = await measure(true)
  const xlsxDry = await measure(true, book, XLSX)
  const refused = await measure(false, refusedCsv)
  const real = await measure(false)
  const [{ total }] = await db.query(
    "SELECT count(*) AS total FROM users WHERE account LIKE 'imp%'"
  )
  console.log(
    JSON.stringify({
      db: config.db,
      rows: ROWS,
      idleRssMb: idle,
      dry,
      xlsxDry,
      refused,
      real,
      imported: Number(total),
    })
  )
} finally {
  child.kill()
  await db.end()
}
