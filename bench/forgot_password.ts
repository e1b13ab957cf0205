/*
| Forgot password: the answer's time for existing (verified) vs unknown accounts (docs/email.md).
|   node --import @poppinss/ts-exec bench/forgot_password.ts        (npm run bench:forgot)
| A server of its own (SQLite, NODE_ENV=test settings: a cheap proof of work), a real SMTP server
| (tests/helpers/smtp.ts) receiving the mails. Requests alternate between a fresh verified account
| (its mail is sent) and an unknown one; only POST /api/auth/password/forgot is timed.
*/
import { execFileSync, spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { startSmtpServer } from '../tests/helpers/smtp.js'
import { credential } from './client.js'
import { answerOf, openDb } from './db.js'
import { freePort, send, waitUntilUp } from './http.js'
import { percentile } from './processes.js'

const ROOT = new URL('..', import.meta.url).pathname
const DB_FILE = 'tmp/bench-forgot.sqlite3'
const ROUNDS = Number(process.env.FORGOT_ROUNDS ?? 150)

const smtp = await startSmtpServer()
rmSync(`${ROOT}${DB_FILE}`, { force: true })
const env = {
  ...process.env,
  NODE_ENV: 'test',
  SQLITE_FILE: DB_FILE,
  DB_CONNECTION: 'sqlite',
  LIMITER_STORE: 'database',
  LIMIT_CAPTCHA_PER_MINUTE: '1000000000',
  LIMIT_LOGIN_FAILURES_PER_IP: '1000000000',
  LOG_LEVEL: 'warn',
  SMTP_HOST: '127.0.0.1',
  SMTP_PORT: String(smtp.port),
}
execFileSync(process.execPath, ['ace', 'migration:run', '--force'], { cwd: ROOT, env })
execFileSync(process.execPath, ['ace', 'db:seed'], { cwd: ROOT, env })
const port = await freePort()
const child = spawn(process.execPath, ['--import', '@poppinss/ts-exec', 'bin/server.ts'], {
  cwd: ROOT,
  env: { ...env, HOST: '127.0.0.1', PORT: String(port) },
  stdio: ['ignore', 'inherit', 'inherit'],
})
const url = `http://127.0.0.1:${port}`
await waitUntilUp(url, '/api/health/live')
const db = openDb({ db: 'sqlite', sqliteFile: `${ROOT}${DB_FILE}` })
const [admin] = await db.query('SELECT password FROM users WHERE account = ?', ['admin'])
for (let i = 0; i < ROUNDS; i++) {
  await db.query(
    `INSERT INTO users (account, nickname, email, email_verified_at, password, status, token_version,
       password_change_required, created_at, updated_at)
     VALUES (?, ?, ?, CURRENT_TIMESTAMP, ?, 'enabled', 0, 0, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`,
    [`known${i}`, `known${i}`, `known${i}@example.test`, admin.password]
  )
}

const times: Record<'existing' | 'unknown', number[]> = { existing: [], unknown: [] }
for (let i = 0; i < ROUNDS * 2; i++) {
  const kind = i % 2 === 0 ? 'existing' : 'unknown'
  const account = kind === 'existing' ? `known${i / 2}` : `nobody${i}`
  const paid = await credential(url, (id) => answerOf(db, id))
  if (paid.status !== 200) throw new Error(`captcha: ${paid.status}`)
  const reply = await send(url, 'POST', '/api/auth/password/forgot', {
    body: { account, captchaToken: paid.captchaToken },
  })
  if (reply.status !== 202) throw new Error(`forgot: ${reply.status}`)
  // Let the work after the answer (the lookup, the mail) finish before the next request.
  await new Promise((resolve) => setTimeout(resolve, 100))
  if (i >= 20) times[kind].push(reply.ms)
}
const row = (kind: 'existing' | 'unknown') =>
  `| ${kind} | ${times[kind].length} | ${percentile(times[kind], 0.5).toFixed(2)} | ${percentile(times[kind], 0.99).toFixed(2)} |`
console.log('\n| account | requests | p50 ms | p99 ms |\n|---|---|---|---|')
console.log(row('existing'))
console.log(row('unknown'))
const [a, b] = [percentile(times.existing, 0.5), percentile(times.unknown, 0.5)]
console.log(`p50 difference: ${((Math.abs(a - b) / Math.min(a, b)) * 100).toFixed(1)} %`)

await new Promise((resolve) => setTimeout(resolve, 500))
child.kill('SIGTERM')
await db.end()
await smtp.close()
