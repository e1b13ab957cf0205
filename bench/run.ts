/*
| npm run bench: builds the app, starts it as `npm start` does (production mode, no V8 flags)
| against the database chosen by env, loads the data set, drives each scenario with autocannon
| from a separate process (load.ts), prints one table and writes it under tmp/ (bench.json,
| bench.txt). Per scenario: req/s, p50/p99 latency, SQL round trips per request, and CPU ms per
| request of the server process (node, from /proc) and of PostgreSQL.
|
| Environment:
|   BENCH_DB=pg|sqlite (default pg)      BENCH_DURATION=seconds per measured run (default 5)
|   BENCH_RUNS=rounds (default 3)        BENCH_CONNECTIONS=autocannon connections (default 10)
|   BENCH_LARGE=articles for the large set (default 1000000)   BENCH_MIXED=soak seconds (default 600)
|   BENCH_SKIP_BUILD=1 reuses build/     BENCH_PORT (default: a free one)
|   BENCH_SCOPE_USERS=accounts over the department tree for the scoped user list (default 300)
|   BENCH_PG_DB (default adonis_rbac_bench; PG_HOST/PG_PORT/PG_USER/PG_PASSWORD as for the app)
|   --quick (or BENCH_QUICK=1): 1 round x 2 s, 20,000 articles, a 20 s soak: proves it runs
|   (about 3 minutes with the build), not a measurement to quote.
|   --baseline <git-rev>: only the hot paths, against the build of <rev> (bench/baseline.ts).
|   --reference: only the hot paths, against the hand-written server of issue 52
|   (bench/reference_server.ts), after checking it answers as the project (bench/baseline.ts).
|
| Every figure is the median over BENCH_RUNS rounds; the scenarios of one round run back to back,
| so ratios (e.g. /me vs /health) compare figures measured under the same machine noise.
*/
import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { solvePow } from '../tests/helpers/captcha.js'
import { login } from './client.js'
import { createDataset, createScopeDataset } from './dataset.js'
import { answerOf, benchAppEnv, benchDbConfig, ensurePgDatabase, openDb } from './db.js'
import { freePort, send, waitUntilUp } from './http.js'
import {
  type Run,
  type Scenario,
  load as loadWith,
  measuredRun as measuredRunOn,
} from './measure.js'
import { anonMbOf, cpuMsOf, median, ownCpuMs, round2, rssMbOf, startCommand } from './processes.js'

// `--help`, or a flag it does not know, prints the header above and stops before anything runs
// (a bench writes to its database and loads the machine).
const flags = process.argv.slice(2).filter((arg) => arg.startsWith('-'))
if (flags.some((flag) => !['--baseline', '--reference', '--quick'].includes(flag))) {
  const source = readFileSync(fileURLToPath(import.meta.url), 'utf8')
  console.log(source.slice(source.indexOf('/*') + 2, source.indexOf('*/')).replace(/^\| ?/gm, ''))
  process.exit(flags.includes('--help') ? 0 : 2)
}

// npm run bench -- --baseline <git-rev> | --reference: the hot paths against another build or
// the hand-written reference, interleaved.
if (process.argv.includes('--baseline') || process.argv.includes('--reference')) {
  await import('./baseline.js')
}

const QUICK = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1'
const setting = (name: string, normal: number, quick: number) =>
  Number(process.env[name] ?? (QUICK ? quick : normal))
const ROOT = fileURLToPath(new URL('../', import.meta.url))
const BUILD = join(ROOT, 'build')
const DB = process.env.BENCH_DB === 'sqlite' ? 'sqlite' : 'pg'
const DURATION = setting('BENCH_DURATION', 5, 2)
const RUNS = setting('BENCH_RUNS', 3, 1)
const CONNECTIONS = setting('BENCH_CONNECTIONS', 10, 10)
const LARGE = setting('BENCH_LARGE', 1_000_000, 20_000)
const SMALL = 10_000
const MIXED = setting('BENCH_MIXED', 600, 20)
const ADMIN_PASSWORD = 'Bench-Root-Passw0rd!'

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`)

type Row = {
  requestsPerSecond: number
  p50: number
  p99: number
  serverCpuMs: number
  pgCpuMs: number
  queries: number
  status: number
  unexpected: number
  runs: Run[]
}

const port = Number(process.env.BENCH_PORT ?? (await freePort()))
const base = `http://127.0.0.1:${port}`
const dbConfig = benchDbConfig(DB, ROOT)
const appEnv = {
  ...benchAppEnv(dbConfig, ADMIN_PASSWORD),
  PORT: String(port),
  DB_QUERY_EVENTS: 'true',
}

const ace = (...args: string[]) =>
  execFileSync(process.execPath, ['ace', ...args], {
    cwd: BUILD,
    env: appEnv,
    stdio: ['ignore', 'ignore', 'inherit'],
  })

// ---------------------------------------------------------------- build, database, data set
if (!process.env.BENCH_SKIP_BUILD) {
  log('building (node ace build)')
  execFileSync(process.execPath, ['ace', 'build'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
}
mkdirSync(join(ROOT, 'tmp'), { recursive: true })
if (dbConfig.db === 'pg') await ensurePgDatabase(dbConfig.pg)
log(`fresh schema and seed on ${DB}${QUICK ? ' (quick mode)' : ''}`)
ace('migration:fresh', '--force')
ace('db:seed')
await createDataset(dbConfig, 'admin')
await createScopeDataset(dbConfig)
log(`loading ${SMALL} articles`)
ace('articles:load', `--count=${SMALL}`) // the schema is fresh: no article yet

// ---------------------------------------------------------------- server
log('starting the production server')
// Exactly as `npm start` runs it (package.json's start script: its environment and node flags).
const startScript = startCommand(ROOT)
const server = spawn(process.execPath, startScript.args, {
  cwd: BUILD,
  env: { ...appEnv, ...startScript.env },
  stdio: ['ignore', 'ignore', 'inherit'],
})
const serverPid = server.pid!
const stopServer = () => server.exitCode === null && server.kill('SIGTERM')
process.on('exit', stopServer)
await waitUntilUp(base, '/api/health')

const db = openDb(dbConfig)
const answer = (captchaId: string) => answerOf(db, captchaId)
const superToken = await login(base, answer, 'admin', ADMIN_PASSWORD)
const bigToken = await login(base, answer, 'bench.admin', ADMIN_PASSWORD)
const smallToken = await login(base, answer, 'bench.small', ADMIN_PASSWORD)
const scopedToken = await login(base, answer, 'bench.scoped', ADMIN_PASSWORD)
const firstSlug = (await send(base, 'GET', '/api/articles?pageSize=1')).body.data[0].slug

// A blocked IP for the "login refused by the limiter" scenario: failures with bogus credentials.
for (let i = 0; i < 25; i++) {
  await send(base, 'POST', '/api/auth/login', {
    body: { account: 'admin', password: 'wrong', captchaToken: 'bogus' },
  })
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` })
const scenarios: Record<string, Scenario> = {
  'health': { path: '/api/health' },
  'me (20 roles / 500 menus)': { path: '/api/auth/me', headers: auth(bigToken) },
  'me (1 role / 10 menus)': { path: '/api/auth/me', headers: auth(smallToken) },
  // Data scope: the same 20 roles and menus, scope `all` against scoped over 500 departments.
  'me (20 roles, scoped / 500 depts)': { path: '/api/auth/me', headers: auth(scopedToken) },
  'users ?pageSize=20, 20 roles, scope all': {
    path: '/api/admin/users?pageSize=20',
    headers: auth(bigToken),
  },
  'users ?pageSize=20, 20 roles, scoped': {
    path: '/api/admin/users?pageSize=20',
    headers: auth(scopedToken),
  },
  'admin users ?pageSize=20': { path: '/api/admin/users?pageSize=20', headers: auth(superToken) },
  'articles page 1 @10k': { path: '/api/articles?pageNum=1&pageSize=10' },
  'articles deep page @10k': { path: '/api/articles?pageNum=500&pageSize=20' },
  'article by slug': { path: `/api/articles/${firstSlug}` },
  'captcha challenge (proof of work only)': { path: '/api/auth/captcha', connections: 2 },
  'login refused by limiter': {
    path: '/api/auth/login',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'admin', password: ADMIN_PASSWORD, captchaToken: 'bogus' }),
    expect: 429,
  },
}

async function queriesPerRequest(scenario: Scenario) {
  const reply = await send(base, scenario.method ?? 'GET', scenario.path, {
    headers: scenario.headers,
    body: scenario.body === undefined ? undefined : JSON.parse(scenario.body),
  })
  return { status: reply.status, queries: Number(reply.headers['x-db-queries']) }
}

const served = { base, pid: serverPid, pg: dbConfig.db === 'pg' && dbConfig.pg.database }
const load = (scenario: Scenario, duration: number) =>
  loadWith(base, scenario, duration, CONNECTIONS)
const measuredRun = (scenario: Scenario, duration = DURATION) =>
  measuredRunOn(served, scenario, duration, CONNECTIONS)

async function measure(names: string[], label: string) {
  const rounds: Record<string, Run[]> = {}
  for (const name of names) rounds[name] = []
  for (let round = 1; round <= RUNS; round++) {
    for (const name of names) {
      log(`${label} round ${round}/${RUNS}: ${name}`)
      rounds[name].push(await measuredRun(scenarios[name]))
    }
  }
  const rows: Record<string, Row> = {}
  for (const name of names) {
    const runs = rounds[name]
    const check = await queriesPerRequest(scenarios[name])
    rows[name] = {
      requestsPerSecond: Math.round(median(runs.map((r) => r.requestsPerSecond))),
      p50: median(runs.map((r) => r.p50)),
      p99: median(runs.map((r) => r.p99)),
      serverCpuMs: round2(median(runs.map((r) => r.serverCpuMsPerRequest))),
      pgCpuMs: round2(median(runs.map((r) => r.pgCpuMsPerRequest))),
      queries: check.queries,
      status: check.status,
      unexpected: runs.reduce(
        (sum, r) => sum + r.errors + (scenarios[name].expect ? 0 : r.non2xx),
        0
      ),
      runs,
    }
  }
  return rows
}

// ---------------------------------------------------------------- measurements
const results: Record<string, any> = {
  db: DB,
  quick: QUICK,
  when: new Date().toISOString(),
  node: process.version,
  cores: cpus().length,
  durationPerRun: DURATION,
  runs: RUNS,
  connections: CONNECTIONS,
}
const small: Record<string, Row> = await measure(Object.keys(scenarios), `@${SMALL}`)
results.small = small

// /me right after an access change: each request follows a write that moves the access version
// (a no-op UPDATE of a role still fires the triggers), so every one takes the miss path.
{
  log('miss path: /me after each access change')
  const latencies: number[] = []
  let queries = 0
  for (let i = 0; i < (QUICK ? 20 : 200); i++) {
    if (DB === 'pg') await db.query("UPDATE roles SET sort = sort WHERE code = 'super_admin'")
    else ace('db:seed') // SQLite: a seeder run writes roles (slow, so fewer rounds matter little)
    const reply = await send(base, 'GET', '/api/auth/me', { headers: auth(bigToken) })
    latencies.push(reply.ms)
    queries = Number(reply.headers['x-db-queries'])
    if (DB === 'sqlite' && i >= 4) break
  }
  results.missPath = { p50: round2(median(latencies)), count: latencies.length, queries }
}

// The bench's own address (127.0.0.1) is blocked and served the highest proof-of-work level by
// now (the challenge scenario, the refused logins): the captcha figures below are taken from
// fresh loopback addresses, as a new client sees them (level 0).
// Captcha: in-process generation time and the size of one response.
{
  log('captcha: payload and generation time')
  const from = '127.0.2.1'
  const { pow } = (await send(base, 'GET', '/api/auth/captcha', { from })).body.data
  const slider = await send(base, 'POST', '/api/auth/captcha', {
    body: { pow: await solvePow(pow) },
    from,
  })
  results.captchaPayloadBytes = JSON.stringify(slider.body).length
  try {
    results.captchaGeneration = execFileSync(
      process.execPath,
      ['--import', '@poppinss/ts-exec', 'bench/captcha_generation.ts', ...(QUICK ? ['50'] : [])],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } }
    ).trim()
  } catch (error) {
    results.captchaGeneration = `failed: ${(error as Error).message}`
  }
}

// The bot's side: CPU for the proof of work of one credential at the served difficulty.
{
  log('captcha: the proof of work of 10 credentials')
  const solves: number[] = []
  for (let i = 0; i < 10; i++) {
    const from = `127.0.2.${i + 2}`
    const { pow, level } = (await send(base, 'GET', '/api/auth/captcha', { from })).body.data
    results.powLevel = level
    const start = ownCpuMs()
    await solvePow(pow)
    solves.push(ownCpuMs() - start)
  }
  results.powSolveCpuMs = Math.round(median(solves))
}

log(`loading ${LARGE - SMALL} more articles (total ${LARGE})`)
const loadStarted = Date.now()
if (LARGE > SMALL) ace('articles:load', `--count=${LARGE - SMALL}`)
results.largeLoadSeconds = Math.round((Date.now() - loadStarted) / 100) / 10
scenarios[`articles page 1 @${LARGE}`] = scenarios['articles page 1 @10k']
scenarios[`articles deep page @${LARGE}`] = scenarios['articles deep page @10k']
// A keyword no title or summary contains: without an index, a scan of every row.
scenarios[`keyword, no match @${LARGE}`] = { path: '/api/articles?keyword=zqxjvw' }
// Every loaded title contains "article": the walk in list order stops at the first page.
scenarios[`keyword, every row @${LARGE}`] = { path: '/api/articles?keyword=article' }
const large: Record<string, Row> = await measure(
  [
    'health',
    `articles page 1 @${LARGE}`,
    `articles deep page @${LARGE}`,
    `keyword, no match @${LARGE}`,
    `keyword, every row @${LARGE}`,
    'me (20 roles / 500 menus)',
  ],
  `@${LARGE}`
)
results.large = large

// Isolation: /me measured while 12 anonymous connections search with varying keywords (some
// matching nothing, some a few rows, some every row), against /me alone in the same phase. Three
// backgrounds: 12 searchers at a fixed total rate (120/s, people typing), the same 12 as fast as
// they can (a flood), and, for reference, a flood of the cheapest request (/api/health): on a
// small machine any flood takes CPU from /me; the question is whether searches take more.
const BACKGROUNDS = ['searches at 120/s', 'searches, flood', 'health, flood']
{
  const keywords = ['zqxjvw', 'article', 'summary of', 'qqqzzz', 'e 4711', '98765', 'xkcdx']
  const searches = Array.from({ length: 21 }, (_, i) => ({
    method: 'GET',
    path: `/api/articles?keyword=${encodeURIComponent(keywords[i % keywords.length])}${i % 3 ? '' : '&pageNum=3'}`,
  }))
  const backgrounds: Record<string, Scenario> = {
    [BACKGROUNDS[0]]: {
      path: '/api/articles',
      connections: 12,
      requests: searches,
      overallRate: 120,
    },
    [BACKGROUNDS[1]]: { path: '/api/articles', connections: 12, requests: searches },
    [BACKGROUNDS[2]]: { path: '/api/health', connections: 12 },
  }
  results.isolation = { meP99Alone: large['me (20 roles / 500 menus)'].p99 }
  for (const [name, background] of Object.entries(backgrounds)) {
    log(`isolation: /me while ${name}`)
    const running = load(background, DURATION + 2)
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const me = await measuredRun(scenarios['me (20 roles / 500 menus)'])
    const other = await running
    results.isolation[name] = {
      meP99: me.p99,
      meRequestsPerSecond: Math.round(me.requestsPerSecond),
      backgroundPerSecond: Math.round(other.requestsPerSecond),
      backgroundP99: other.p99,
      backgroundNon2xx: other.non2xx + other.errors,
    }
  }
}

log(`mixed run (RSS soak), ${MIXED} s`)
// RSS is sampled while the load runs: after the first minute and at the end (no growth wanted).
const rssSamples: { at: number; mb: number }[] = []
const sampler = setInterval(
  () => rssSamples.push({ at: rssSamples.length * 10 + 10, mb: rssMbOf(serverPid) }),
  10_000
)
const mixedCpuStart = cpuMsOf(serverPid)
const mixed = await load(
  {
    path: '/api/health',
    requests: [
      { method: 'GET', path: '/api/auth/me', headers: auth(bigToken) },
      { method: 'GET', path: '/api/articles?pageNum=1&pageSize=10' },
      { method: 'GET', path: `/api/articles/${firstSlug}` },
      { method: 'GET', path: '/api/articles?keyword=zqxjvw' },
      { method: 'GET', path: '/api/admin/users?pageSize=20', headers: auth(superToken) },
      { method: 'GET', path: '/api/health' },
    ],
  },
  MIXED
)
clearInterval(sampler)
const mixedCpuMs = round2((cpuMsOf(serverPid) - mixedCpuStart) / Math.max(1, mixed.total))
const rssAfterMinute = (rssSamples.find((sample) => sample.at >= 60) ?? rssSamples[0])?.mb
results.mixed = {
  ...mixed,
  serverCpuMsPerRequest: mixedCpuMs,
  rssMb: rssMbOf(serverPid),
  anonMb: anonMbOf(serverPid),
  rssAfterMinuteMb: rssAfterMinute,
  rssSamples,
}
await db.end()
stopServer()

// ---------------------------------------------------------------- report
const s = small
const l = large
const ratio = (a: number, b: number) => Math.round((a / b) * 100)
const cpuLine = (label: string, row: Row, target: string): [string, string] => [
  `node CPU ms per request, ${label}`,
  `${row.serverCpuMs}${DB === 'pg' ? ` (PostgreSQL ${row.pgCpuMs})` : ''} (issue 27 target ${target})`,
]
const scopeLine = (label: string, scoped: Row, all: Row): [string, string] => [
  `data scope: ${label}, scoped over 500 departments vs scope all (node CPU ms per request)`,
  `${scoped.serverCpuMs} vs ${all.serverCpuMs} = ${ratio(scoped.serverCpuMs, all.serverCpuMs)} %; req/s ${scoped.requestsPerSecond} vs ${all.requestsPerSecond} (issue 29 target <= 110 %)`,
]
results.targets = [
  [
    'guard+snapshot queries, 20 roles/500 menus (admin users read)',
    `${s['admin users ?pageSize=20'].queries} total incl. the page queries`,
  ],
  [
    '/me queries, 20 roles/500 menus',
    `${s['me (20 roles / 500 menus)'].queries} (target 1 when nothing changed)`,
  ],
  [
    '/me queries, 1 role/10 menus',
    `${s['me (1 role / 10 menus)'].queries} (target 1 when nothing changed)`,
  ],
  [
    '/me (20 roles/500 menus) throughput vs /health',
    `${ratio(s['me (20 roles / 500 menus)'].requestsPerSecond, s.health.requestsPerSecond)} % (target >= 35 %)`,
  ],
  [
    '/me (1 role/10 menus) throughput vs /health',
    `${ratio(s['me (1 role / 10 menus)'].requestsPerSecond, s.health.requestsPerSecond)} % (target >= 50 %)`,
  ],
  [
    'list page 1 / detail throughput vs /health',
    `${ratio(s['articles page 1 @10k'].requestsPerSecond, s.health.requestsPerSecond)} % / ${ratio(s['article by slug'].requestsPerSecond, s.health.requestsPerSecond)} % (targets >= 30 % / 60 %)`,
  ],
  cpuLine('/me, 20 roles / 500 menus', s['me (20 roles / 500 menus)'], '<= 0.20'),
  cpuLine('/me, 1 role / 10 menus', s['me (1 role / 10 menus)'], '<= 0.18'),
  scopeLine(
    '/me, 20 roles',
    s['me (20 roles, scoped / 500 depts)'],
    s['me (20 roles / 500 menus)']
  ),
  scopeLine(
    'users list, 20 roles',
    s['users ?pageSize=20, 20 roles, scoped'],
    s['users ?pageSize=20, 20 roles, scope all']
  ),
  cpuLine('list page 1', s['articles page 1 @10k'], '<= 0.20, PostgreSQL <= 0.30'),
  cpuLine('detail', s['article by slug'], '<= 0.12'),
  cpuLine('readiness (/api/health)', s.health, '<= 0.10'),
  cpuLine('login refused by the limiter', s['login refused by limiter'], '<= 0.08'),
  [
    '/me right after an access change (miss path), p50',
    `${results.missPath.p50} ms over ${results.missPath.count} requests, ${results.missPath.queries} SQL/req`,
  ],
  [
    `list page 1 p50 @${LARGE} vs @${SMALL}`,
    `${l[`articles page 1 @${LARGE}`].p50} ms vs ${s['articles page 1 @10k'].p50} ms (target <= 2x)`,
  ],
  [
    `keyword search, no match @${LARGE}, p50`,
    `${l[`keyword, no match @${LARGE}`].p50} ms (target <= 20 ms); every row matching: ${l[`keyword, every row @${LARGE}`].p50} ms`,
  ],
  ...BACKGROUNDS.map((name) => [
    `/me p99 while 12 connections run ${name}, vs alone`,
    `${results.isolation[name].meP99} ms vs ${results.isolation.meP99Alone} ms (target <= 2x); background ${results.isolation[name].backgroundPerSecond} req/s, p99 ${results.isolation[name].backgroundP99} ms, ${results.isolation[name].backgroundNon2xx} non-2xx`,
  ]),
  ['captcha generation (in-process)', results.captchaGeneration],
  ['captcha payload', `${results.captchaPayloadBytes} bytes (target <= 25600)`],
  [
    'cost of one credential: bot (proof of work) vs server (one challenge)',
    `${results.powSolveCpuMs} CPU ms (level ${results.powLevel}, median of 10) vs ${s['captcha challenge (proof of work only)'].serverCpuMs} CPU ms`,
  ],
  [
    'limiter-refused login vs /health',
    `${ratio(s['login refused by limiter'].requestsPerSecond, s.health.requestsPerSecond)} % (target >= 50 %)`,
  ],
  [
    `RSS soak (${MIXED} s mixed run)`,
    `${results.mixed.rssAfterMinuteMb} MB after the first minute, ${results.mixed.rssMb} MB at the end (target: within 10 %), ${results.mixed.anonMb} MB of it private (RssAnon)`,
  ],
]

const cells = (values: (string | number)[], widths: number[]) =>
  values.map((value, i) =>
    i ? String(value).padStart(widths[i]) : String(value).padEnd(widths[i])
  )
const WIDTHS = [38, 8, 7, 7, 8, 8, 6, 6, 4]
const table = [
  `benchmark on ${DB}${QUICK ? ' (quick: not for quoting)' : ''}, node ${process.version}, ${results.cores} cores, ${RUNS} rounds x ${DURATION} s, ${CONNECTIONS} connections (medians); CPU = ms per request`,
  '',
  cells(
    ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'SQL/req', 'node cpu', 'pg cpu', 'status', 'bad'],
    WIDTHS
  ).join(' '),
]
for (const rows of [s, l]) {
  for (const [name, row] of Object.entries(rows)) {
    table.push(
      cells(
        [
          name,
          row.requestsPerSecond,
          row.p50,
          row.p99,
          row.queries,
          row.serverCpuMs,
          row.pgCpuMs,
          row.status,
          row.unexpected,
        ],
        WIDTHS
      ).join(' ')
    )
  }
}
table.push(
  cells(
    [
      `mixed ${MIXED} s`,
      Math.round(mixed.requestsPerSecond),
      mixed.p50,
      mixed.p99,
      '-',
      mixedCpuMs,
      '-',
      '-',
      mixed.non2xx + mixed.errors,
    ],
    WIDTHS
  ).join(' ')
)
table.push('', 'targets:')
for (const [name, value] of results.targets) table.push(`  ${name}: ${value}`)
const text = table.join('\n')
process.stdout.write(`${text}\n`)
writeFileSync(join(ROOT, 'tmp/bench.json'), JSON.stringify(results, null, 2))
writeFileSync(join(ROOT, 'tmp/bench.txt'), `${text}\n`)
log('written tmp/bench.json and tmp/bench.txt')
process.exit(0)
