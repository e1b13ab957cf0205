/*
| npm run bench -- --baseline <git-rev>: the hot paths of this tree against the build of <rev>,
| in one run on one database, interleaved. <rev> is exported (git archive) to
| tmp/bench-baseline/<sha>/ and built there (kept: a second run reuses it); this tree is built
| into build/ as `npm run bench` does. Both servers run as `npm start` does, side by side on two
| ports, and only one is loaded at a time: each round runs every scenario on both, the order
| flipping each round (ABBA), so machine noise falls on both sides alike. Printed per scenario:
| req/s of each and their ratio, p99, and node and PostgreSQL CPU ms per request (the figure to
| trust on a busy machine: it does not count the time the server waited for a core).
|
| Same settings as bench/run.ts (BENCH_DB, BENCH_PG_DB, BENCH_RUNS, BENCH_DURATION,
| BENCH_CONNECTIONS, BENCH_SKIP_BUILD), plus BENCH_NODE_FLAGS: V8/Node flags for both servers
| (e.g. "--cpu-prof --cpu-prof-dir=tmp/prof"), and BENCH_ONLY=<regex> to run only the scenarios
| whose name matches. Both builds use the schema this tree migrates, so
| <rev> must read the same tables (a recent commit). Writes tmp/bench-baseline.{json,txt}.
*/
import { execFileSync, execSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { login } from './client.js'
import { createDataset } from './dataset.js'
import { answerOf, ensurePgDatabase, openDb, pgConnection, type DbConfig } from './db.js'
import { freePort, send, waitUntilUp } from './http.js'
import { type Run, type Scenario, measuredRun } from './measure.js'
import { median, round2 } from './processes.js'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const rev = process.argv[process.argv.indexOf('--baseline') + 1]
if (!rev || rev.startsWith('--')) throw new Error('usage: npm run bench -- --baseline <git-rev>')
const DB = process.env.BENCH_DB === 'sqlite' ? 'sqlite' : 'pg'
const DURATION = Number(process.env.BENCH_DURATION ?? 5)
const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean)
const ADMIN_PASSWORD = 'Bench-Root-Passw0rd!'
const SMALL = 10_000

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`)
const sha = execFileSync('git', ['rev-parse', '--verify', `${rev}^{commit}`], {
  cwd: ROOT,
  encoding: 'utf8',
}).trim()

// ---------------------------------------------------------------- the two builds
const build = (dir: string) =>
  execFileSync(process.execPath, ['ace', 'build'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
const baselineDir = join(ROOT, 'tmp/bench-baseline', sha)
if (!existsSync(join(baselineDir, 'build/bin/server.js'))) {
  log(`exporting ${rev} (${sha.slice(0, 10)}) to ${baselineDir} and building it`)
  mkdirSync(baselineDir, { recursive: true })
  execSync(`git archive ${sha} | tar -x -C "${baselineDir}"`, { cwd: ROOT })
  if (!existsSync(join(baselineDir, 'node_modules'))) {
    symlinkSync(resolve(ROOT, 'node_modules'), join(baselineDir, 'node_modules'))
  }
  build(baselineDir)
}
if (!process.env.BENCH_SKIP_BUILD) {
  log('building this tree (node ace build)')
  build(ROOT)
}
const builds = { this: join(ROOT, 'build'), baseline: join(baselineDir, 'build') }

// ---------------------------------------------------------------- database, data set
const dbConfig: DbConfig =
  DB === 'pg'
    ? { db: 'pg', pg: pgConnection(process.env.BENCH_PG_DB ?? 'adonis_rbac_bench') }
    : { db: 'sqlite', sqliteFile: join(ROOT, 'tmp/bench.sqlite3') }
const appEnv = {
  ...process.env,
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  APP_KEY: randomBytes(32).toString('base64url'),
  JWT_SECRET: randomBytes(48).toString('base64url'),
  DB_CONNECTION: DB,
  ...(dbConfig.db === 'pg'
    ? {
        PG_HOST: dbConfig.pg.host,
        PG_PORT: String(dbConfig.pg.port),
        PG_USER: dbConfig.pg.user,
        PG_PASSWORD: dbConfig.pg.password,
        PG_DB_NAME: dbConfig.pg.database,
      }
    : { SQLITE_FILE: dbConfig.sqliteFile }),
  LIMIT_CAPTCHA_PER_MINUTE: '1000000000',
  LIMIT_SEARCH_PER_MINUTE: '1000000000',
  ADMIN_ACCOUNT: 'admin',
  ADMIN_PASSWORD,
}
const ace = (...args: string[]) =>
  execFileSync(process.execPath, ['ace', ...args], {
    cwd: builds.this,
    env: { ...appEnv, PORT: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
mkdirSync(join(ROOT, 'tmp'), { recursive: true })
if (dbConfig.db === 'pg') await ensurePgDatabase(dbConfig.pg)
log(`fresh schema and seed on ${DB}`)
ace('migration:fresh', '--force')
ace('db:seed')
await createDataset(dbConfig, 'admin')
ace('articles:load', `--count=${SMALL}`)

// ---------------------------------------------------------------- servers
type Side = keyof typeof builds
const sides: Side[] = ['this', 'baseline']
const servers = {} as Record<Side, { base: string; pid: number; pg: boolean; stop: () => void }>
for (const side of sides) {
  const port = await freePort()
  const child = spawn(process.execPath, [...NODE_FLAGS, 'bin/server.js'], {
    cwd: builds[side],
    env: { ...appEnv, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const stop = () => child.exitCode === null && child.kill('SIGTERM')
  process.on('exit', stop)
  servers[side] = { base: `http://127.0.0.1:${port}`, pid: child.pid!, pg: DB === 'pg', stop }
  await waitUntilUp(servers[side].base, '/api/health')
}

// Tokens are valid on both servers (one JWT secret, one sessions table).
const db = openDb(dbConfig)
const answer = (captchaId: string) => answerOf(db, captchaId)
const bigToken = await login(servers.this.base, answer, 'bench.admin', ADMIN_PASSWORD)
const smallToken = await login(servers.this.base, answer, 'bench.small', ADMIN_PASSWORD)
const firstSlug = (await send(servers.this.base, 'GET', '/api/articles?pageSize=1')).body.data[0]
  .slug
await db.end()
// The bench's address is blocked for logins (bogus credentials), on both servers.
for (const side of sides) {
  for (let i = 0; i < 25; i++) {
    await send(servers[side].base, 'POST', '/api/auth/login', {
      body: { account: 'admin', password: 'wrong', captchaToken: 'bogus' },
    })
  }
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` })
const scenarios: Record<string, Scenario> = {
  'readiness (/api/health)': { path: '/api/health' },
  '/me, 20 roles / 500 menus': { path: '/api/auth/me', headers: auth(bigToken) },
  '/me, 1 role / 10 menus': { path: '/api/auth/me', headers: auth(smallToken) },
  'list page 1': { path: '/api/articles?pageNum=1&pageSize=10' },
  'detail': { path: `/api/articles/${firstSlug}` },
  'login refused by the limiter': {
    path: '/api/auth/login',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'admin', password: ADMIN_PASSWORD, captchaToken: 'bogus' }),
    expect: 429,
  },
}
// BENCH_ONLY=<regex>: only the scenarios whose name matches (e.g. to profile one of them).
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null
for (const name of Object.keys(scenarios)) if (only && !only.test(name)) delete scenarios[name]
/** The per-request CPU targets of issue 27 (node, and PostgreSQL where one is set). */
const TARGETS: Record<string, string> = {
  'readiness (/api/health)': '0.10',
  '/me, 20 roles / 500 menus': '0.20',
  '/me, 1 role / 10 menus': '0.18',
  'list page 1': '0.20 / pg 0.30',
  'detail': '0.12',
  'login refused by the limiter': '0.08',
}

// ---------------------------------------------------------------- interleaved rounds
log(`warming up both servers`)
for (const side of sides) {
  for (const scenario of Object.values(scenarios)) {
    await measuredRun(servers[side], scenario, 1, CONNECTIONS)
  }
}
const runs: Record<string, Record<Side, Run[]>> = {}
for (const name of Object.keys(scenarios)) runs[name] = { this: [], baseline: [] }
for (let round = 1; round <= RUNS; round++) {
  for (const [name, scenario] of Object.entries(scenarios)) {
    const order: Side[] = round % 2 ? ['this', 'baseline'] : ['baseline', 'this']
    for (const side of order) {
      log(`round ${round}/${RUNS}: ${name} on ${side}`)
      runs[name][side].push(await measuredRun(servers[side], scenario, DURATION, CONNECTIONS))
    }
  }
}
for (const side of sides) servers[side].stop()

// ---------------------------------------------------------------- report
const figure = (list: Run[], pick: (run: Run) => number) => median(list.map(pick))
const rows = Object.entries(runs).map(([name, bySide]) => {
  const of = (side: Side) => ({
    requestsPerSecond: Math.round(figure(bySide[side], (r) => r.requestsPerSecond)),
    p99: figure(bySide[side], (r) => r.p99),
    nodeCpuMs: round2(figure(bySide[side], (r) => r.serverCpuMsPerRequest)),
    pgCpuMs: round2(figure(bySide[side], (r) => r.pgCpuMsPerRequest)),
    unexpected: bySide[side].reduce(
      (sum, r) => sum + r.errors + (scenarios[name].expect ? 0 : r.non2xx),
      0
    ),
  })
  const current = of('this')
  const baseline = of('baseline')
  return {
    name,
    this: current,
    baseline,
    ratio: round2(current.requestsPerSecond / Math.max(1, baseline.requestsPerSecond)),
    target: TARGETS[name],
  }
})
const WIDTHS = [30, 7, 7, 6, 11, 11, 11, 9, 15]
const cells = (values: (string | number)[]) =>
  values
    .map((value, i) => (i ? String(value).padStart(WIDTHS[i]) : String(value).padEnd(WIDTHS[i])))
    .join(' ')
const lines = [
  `this tree vs ${rev} (${sha.slice(0, 10)}) on ${DB}, node ${process.version}, ${cpus().length} cores, ${RUNS} interleaved rounds x ${DURATION} s, ${CONNECTIONS} connections (medians); CPU = ms per request`,
  '',
  cells([
    'scenario',
    'req/s',
    'base',
    'ratio',
    'node cpu',
    'base cpu',
    'pg cpu',
    'p99 ms',
    'target (node)',
  ]),
  ...rows.map((row) =>
    cells([
      row.name,
      row.this.requestsPerSecond,
      row.baseline.requestsPerSecond,
      row.ratio,
      row.this.nodeCpuMs,
      row.baseline.nodeCpuMs,
      `${row.this.pgCpuMs}/${row.baseline.pgCpuMs}`,
      `${row.this.p99}/${row.baseline.p99}`,
      row.target,
    ])
  ),
]
const bad = rows.filter((row) => row.this.unexpected || row.baseline.unexpected)
if (bad.length) lines.push('', `unexpected answers: ${bad.map((row) => row.name).join(', ')}`)
const text = lines.join('\n')
process.stdout.write(`${text}\n`)
writeFileSync(
  join(ROOT, 'tmp/bench-baseline.json'),
  JSON.stringify({ rev, sha, db: DB, when: new Date().toISOString(), rows, runs }, null, 2)
)
writeFileSync(join(ROOT, 'tmp/bench-baseline.txt'), `${text}\n`)
log('written tmp/bench-baseline.json and tmp/bench-baseline.txt')
// Let the servers write what NODE_FLAGS asked for (e.g. a CPU profile) before leaving.
await new Promise((done) => setTimeout(done, 2000))
process.exit(0)
