/*
| npm run bench: builds the app, starts it in production mode against a database chosen by env,
| loads the data set, drives load with autocannon from separate processes, prints one table and
| writes it as JSON under tmp/.
|
| Environment:
|   BENCH_DB=pg|sqlite (default pg)      BENCH_DURATION=seconds per measured run (default 5)
|   BENCH_RUNS=rounds (default 3)        BENCH_CONNECTIONS=autocannon connections (default 10)
|   BENCH_LARGE=articles for the large set (default 1000000)   BENCH_MIXED=soak seconds (default 600)
|   BENCH_SKIP_BUILD=1 reuses build/
|
| Every figure is the median over BENCH_RUNS rounds; the scenarios of one round run back to back,
| so ratios (e.g. /me vs /health) compare figures measured under the same machine noise.
*/
import { execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { solveChallenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/scrypt'
import { createDataset, readCaptchaAnswer } from './dataset.js'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const BUILD = join(ROOT, 'build')
const DB = process.env.BENCH_DB ?? 'pg'
const DURATION = Number(process.env.BENCH_DURATION ?? 5)
const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)
const LARGE = Number(process.env.BENCH_LARGE ?? 1_000_000)
const SMALL = 10_000
const MIXED = Number(process.env.BENCH_MIXED ?? 600)
const ADMIN_PASSWORD = 'Bench-Admin-Passw0rd!'

const log = (line) => process.stderr.write(`[bench] ${line}\n`)
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

async function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** fetch, retried once: the server may close an idle keep-alive socket just as it is reused. */
async function request(url, init) {
  try {
    return await fetch(url, init)
  } catch {
    return fetch(url, init)
  }
}

const port = await freePort()
const base = `http://127.0.0.1:${port}`
const dbConfig = {
  db: DB,
  adminAccount: 'admin',
  sqliteFile: join(ROOT, 'tmp/bench.sqlite3'),
  pg: {
    host: '127.0.0.1',
    port: 5432,
    user: 'postgres',
    password: '',
    database: 'adonis_rbac_bench',
  },
}
const appEnv = {
  ...process.env,
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  PORT: String(port),
  LOG_LEVEL: 'warn',
  APP_KEY: randomBytes(32).toString('base64url'),
  JWT_SECRET: randomBytes(48).toString('base64url'),
  DB_CONNECTION: DB,
  SQLITE_FILE: dbConfig.sqliteFile,
  PG_DB_NAME: dbConfig.pg.database,
  DB_QUERY_EVENTS: 'true',
  // The captcha scenario measures generation, not the per-IP limit.
  LIMIT_CAPTCHA_PER_MINUTE: '1000000000',
  LIMIT_SEARCH_PER_MINUTE: '1000000000',
  ADMIN_ACCOUNT: 'admin',
  ADMIN_PASSWORD,
}

const ace = (...args) =>
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
if (DB === 'pg') {
  const admin = new pg.Client({ ...dbConfig.pg, database: 'postgres' })
  await admin.connect()
  const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [
    dbConfig.pg.database,
  ])
  if (!rowCount) await admin.query(`CREATE DATABASE ${dbConfig.pg.database}`)
  await admin.end()
}
log(`fresh schema and seed on ${DB}`)
ace('migration:fresh', '--force')
ace('db:seed')
await createDataset(dbConfig)
log(`loading ${SMALL} articles`)
ace('articles:load', `--count=${SMALL}`) // the schema is fresh: no article yet

// ---------------------------------------------------------------- server
log('starting the production server')
// Exactly as `npm start` runs it (package.json): no V8 flags.
const server = spawn(process.execPath, ['bin/server.js'], {
  cwd: BUILD,
  env: appEnv,
  stdio: ['ignore', 'ignore', 'inherit'],
})
const stopServer = () => server.exitCode === null && server.kill('SIGTERM')
process.on('exit', stopServer)
for (let i = 0; ; i++) {
  try {
    if ((await request(`${base}/api/health`)).ok) break
  } catch {}
  if (i > 300) throw new Error('server did not start')
  await new Promise((resolve) => setTimeout(resolve, 100))
}
const rssMb = () => {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8')
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024)
}

/** A person's drag to x: eased in and out, a wobbling y, uneven intervals. */
function humanTrack(x) {
  const points = []
  let t = 0
  for (let i = 0; i <= 24; i++) {
    const p = i / 24
    const eased = p < 0.5 ? 2 * p * p : 1 - (-2 * p + 2) ** 2 / 2
    points.push([eased * x, Math.round(Math.random() * 3), Math.round(t)])
    t += 16 + Math.random() * 14
  }
  points[24][0] = x
  return points
}

/** What a client (a browser, or a bot) pays for one credential: the proof of work. */
async function solvePow(pow) {
  return { challenge: pow, solution: await solveChallenge({ challenge: pow, deriveKey }) }
}

async function login(account) {
  const { pow } = (await (await request(`${base}/api/auth/captcha`)).json()).data
  const slider = await request(`${base}/api/auth/captcha`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pow: await solvePow(pow) }),
  })
  const challenge = (await slider.json()).data
  const x = await readCaptchaAnswer(dbConfig, challenge.captchaId)
  const verify = await request(`${base}/api/auth/captcha/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      captchaId: challenge.captchaId,
      x,
      track: humanTrack(x),
    }),
  })
  const { captchaToken } = (await verify.json()).data
  const response = await request(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account, password: ADMIN_PASSWORD, captchaToken }),
  })
  if (!response.ok)
    throw new Error(`login of ${account} failed: ${response.status} ${await response.text()}`)
  return (await response.json()).data.token
}
const superToken = await login('admin')
const bigToken = await login('bench.admin')
const smallToken = await login('bench.small')
const firstSlug = (await (await request(`${base}/api/articles?pageSize=1`)).json()).data[0].slug

// A blocked IP for the "login refused by the limiter" scenario: failures with bogus credentials.
for (let i = 0; i < 25; i++) {
  await request(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'admin', password: 'wrong', captchaToken: 'bogus' }),
  })
}

const auth = (token) => ({ authorization: `Bearer ${token}` })
const loginBody = JSON.stringify({
  account: 'admin',
  password: ADMIN_PASSWORD,
  captchaToken: 'bogus',
})
const scenarios = {
  'health': { path: '/api/health' },
  'me (20 roles / 500 menus)': { path: '/api/auth/me', headers: auth(bigToken) },
  'me (1 role / 10 menus)': { path: '/api/auth/me', headers: auth(smallToken) },
  'admin users ?pageSize=20': { path: '/api/admin/users?pageSize=20', headers: auth(superToken) },
  'articles page 1 @10k': { path: '/api/articles?pageNum=1&pageSize=10' },
  'articles deep page @10k': { path: '/api/articles?pageNum=500&pageSize=20' },
  'article by slug': { path: `/api/articles/${firstSlug}` },
  'captcha challenge (proof of work only)': { path: '/api/auth/captcha', connections: 2 },
  'login refused by limiter': {
    path: '/api/auth/login',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: loginBody,
    expect: 429,
  },
}

async function queriesPerRequest(scenario) {
  const response = await request(`${base}${scenario.path}`, {
    method: scenario.method ?? 'GET',
    headers: scenario.headers,
    body: scenario.body,
  })
  await response.arrayBuffer()
  return { status: response.status, queries: Number(response.headers.get('x-db-queries')) }
}

/** CPU time (ms) a process has used, from /proc (utime + stime, in clock ticks of 10 ms). */
function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return 0 // the process ended meanwhile
  }
}
/** CPU time (ms) of every PostgreSQL process on the machine (the backends serving the bench). */
function postgresCpuMs() {
  let total = 0
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') total += cpuMsOf(entry)
    } catch {}
  }
  return total
}

function runLoad(scenario, duration = DURATION) {
  const before = { server: cpuMsOf(server.pid), pg: DB === 'pg' ? postgresCpuMs() : 0 }
  const result = runLoadOnly(scenario, duration)
  const requests = Math.max(1, result.total)
  result.serverCpuMsPerRequest = (cpuMsOf(server.pid) - before.server) / requests
  result.pgCpuMsPerRequest = DB === 'pg' ? (postgresCpuMs() - before.pg) / requests : 0
  return result
}

/** runLoad without blocking this process (so RSS can be sampled meanwhile). */
function runLoadAsync(scenario, duration) {
  const options = {
    url: `${base}${scenario.path}`,
    method: scenario.method ?? 'GET',
    headers: scenario.headers ?? {},
    connections: scenario.connections ?? CONNECTIONS,
    duration,
    requests: scenario.requests,
    overallRate: scenario.overallRate,
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bench/load.js'), JSON.stringify(options)])
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(output)) : reject(new Error(`load exited ${code}`))
    )
  })
}

function runLoadOnly(scenario, duration) {
  const options = {
    url: `${base}${scenario.path}`,
    method: scenario.method ?? 'GET',
    headers: scenario.headers ?? {},
    body: scenario.body,
    connections: scenario.connections ?? CONNECTIONS,
    duration,
    requests: scenario.requests,
  }
  const output = execFileSync(
    process.execPath,
    [join(ROOT, 'bench/load.js'), JSON.stringify(options)],
    {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    }
  )
  return JSON.parse(output)
}

async function measure(names, label) {
  const rounds = {}
  for (const name of names) rounds[name] = []
  for (let round = 1; round <= RUNS; round++) {
    for (const name of names) {
      log(`${label} round ${round}/${RUNS}: ${name}`)
      rounds[name].push(runLoad(scenarios[name]))
    }
  }
  const rows = {}
  for (const name of names) {
    const runs = rounds[name]
    const check = await queriesPerRequest(scenarios[name])
    rows[name] = {
      requestsPerSecond: Math.round(median(runs.map((r) => r.requestsPerSecond))),
      p50: median(runs.map((r) => r.p50)),
      p99: median(runs.map((r) => r.p99)),
      serverCpuMs: Math.round(median(runs.map((r) => r.serverCpuMsPerRequest)) * 100) / 100,
      pgCpuMs: Math.round(median(runs.map((r) => r.pgCpuMsPerRequest)) * 100) / 100,
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
const results = {
  db: DB,
  when: new Date().toISOString(),
  node: process.version,
  cores: (await import('node:os')).cpus().length,
  durationPerRun: DURATION,
  runs: RUNS,
  connections: CONNECTIONS,
}
results.small = await measure(Object.keys(scenarios), `@${SMALL}`)

// /me right after an access change: each request follows a write that moves the access version
// (a no-op UPDATE of a role still fires the triggers), so every one takes the miss path.
{
  log('miss path: /me after each access change')
  const writer = DB === 'pg' ? new pg.Client(dbConfig.pg) : null
  if (writer) await writer.connect()
  const latencies = []
  let queries = 0
  for (let i = 0; i < 200; i++) {
    if (writer) await writer.query("UPDATE roles SET sort = sort WHERE code = 'super_admin'")
    else ace('db:seed') // SQLite: a seeder run writes roles (slow, so fewer rounds matter little)
    const started = performance.now()
    const response = await request(`${base}/api/auth/me`, { headers: auth(bigToken) })
    await response.arrayBuffer()
    latencies.push(performance.now() - started)
    queries = Number(response.headers.get('x-db-queries'))
    if (!writer && i >= 4) break
  }
  if (writer) await writer.end()
  results.missPath = {
    p50: Math.round(median(latencies) * 100) / 100,
    count: latencies.length,
    queries,
  }
}

// Captcha: in-process generation time and the size of one response.
const captchaResponse = await request(`${base}/api/auth/captcha`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    pow: await solvePow((await (await request(`${base}/api/auth/captcha`)).json()).data.pow),
  }),
})
results.captchaPayloadBytes = (await captchaResponse.text()).length
try {
  results.captchaGeneration = execFileSync(
    process.execPath,
    ['--import', '@poppinss/ts-exec', 'bench/captcha_generation.ts'],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } }
  ).trim()
} catch (error) {
  results.captchaGeneration = `failed: ${error.message}`
}

// The bot's side: CPU for the proof of work of one credential at the served difficulty.
{
  const solves = []
  for (let i = 0; i < 10; i++) {
    const { pow } = (await (await request(`${base}/api/auth/captcha`)).json()).data
    const cpu = process.cpuUsage()
    await solvePow(pow)
    const used = process.cpuUsage(cpu)
    solves.push((used.user + used.system) / 1000)
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
results.large = await measure(
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

// Isolation: /me measured while 12 anonymous connections search with varying keywords (some
// matching nothing, some a few rows, some every row), against /me alone in the same phase. Three
// backgrounds: 12 searchers at a fixed total rate (120/s, people typing), the same 12 as fast as
// they can (a flood), and, for reference, a flood of the cheapest request (/api/health): on a
// small machine any flood takes CPU from /me; the question is whether searches take more.
{
  const keywords = ['zqxjvw', 'article', 'summary of', 'qqqzzz', 'e 4711', '98765', 'xkcdx']
  const searches = Array.from({ length: 21 }, (_, i) => ({
    method: 'GET',
    path: `/api/articles?keyword=${encodeURIComponent(keywords[i % keywords.length])}${i % 3 ? '' : '&pageNum=3'}`,
  }))
  const backgrounds = {
    'searches at 120/s': {
      path: '/api/articles',
      connections: 12,
      requests: searches,
      overallRate: 120,
    },
    'searches, flood': { path: '/api/articles', connections: 12, requests: searches },
    'health, flood': { path: '/api/health', connections: 12 },
  }
  results.isolation = { meP99Alone: results.large['me (20 roles / 500 menus)'].p99 }
  for (const [name, background] of Object.entries(backgrounds)) {
    log(`isolation: /me while ${name}`)
    const running = runLoadAsync(background, DURATION + 2)
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const me = runLoad(scenarios['me (20 roles / 500 menus)'])
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
const rssSamples = []
const sampler = setInterval(
  () => rssSamples.push({ at: rssSamples.length * 10 + 10, mb: rssMb() }),
  10_000
)
const mixed = await runLoadAsync(
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
const rssAfterMinute = (rssSamples.find((sample) => sample.at >= 60) ?? rssSamples[0])?.mb
results.mixed = { ...mixed, rssMb: rssMb(), rssAfterMinuteMb: rssAfterMinute, rssSamples }
stopServer()

// ---------------------------------------------------------------- report
const s = results.small
const l = results.large
const ratio = (a, b) => Math.round((a / b) * 100)
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
  ...['searches at 120/s', 'searches, flood', 'health, flood'].map((name) => [
    `/me p99 while 12 connections run ${name}, vs alone`,
    `${results.isolation[name].meP99} ms vs ${results.isolation.meP99Alone} ms (target <= 2x); background ${results.isolation[name].backgroundPerSecond} req/s, p99 ${results.isolation[name].backgroundP99} ms, ${results.isolation[name].backgroundNon2xx} non-2xx`,
  ]),
  ['captcha generation (in-process)', results.captchaGeneration],
  ['captcha payload', `${results.captchaPayloadBytes} bytes (target <= 25600)`],
  [
    'cost of one credential: bot (proof of work) vs server (one challenge)',
    `${results.powSolveCpuMs} CPU ms (median of 10) vs ${s['captcha challenge (proof of work only)'].serverCpuMs} CPU ms`,
  ],
  [
    'limiter-refused login vs /health',
    `${ratio(s['login refused by limiter'].requestsPerSecond, s.health.requestsPerSecond)} % (target >= 50 %)`,
  ],
  [
    `RSS soak (${MIXED} s mixed run)`,
    `${results.mixed.rssAfterMinuteMb} MB after the first minute, ${results.mixed.rssMb} MB at the end (target: within 10 %)`,
  ],
]

const table = [
  `benchmark on ${DB}, node ${process.version}, ${results.cores} cores, ${RUNS} rounds x ${DURATION} s, ${CONNECTIONS} connections (medians)`,
  '',
  `${'scenario'.padEnd(34)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'SQL/req'.padStart(8)} ${'cpu ms'.padStart(7)} ${'pg ms'.padStart(6)} ${'status'.padStart(6)} ${'bad'.padStart(4)}`,
]
for (const rows of [s, l]) {
  for (const [name, row] of Object.entries(rows)) {
    table.push(
      `${name.padEnd(34)} ${String(row.requestsPerSecond).padStart(8)} ${String(row.p50).padStart(7)} ${String(row.p99).padStart(7)} ${String(row.queries).padStart(8)} ${String(row.serverCpuMs).padStart(7)} ${String(row.pgCpuMs).padStart(6)} ${String(row.status).padStart(6)} ${String(row.unexpected).padStart(4)}`
    )
  }
}
table.push(
  `${`mixed ${MIXED} s`.padEnd(34)} ${String(Math.round(mixed.requestsPerSecond)).padStart(8)} ${String(mixed.p50).padStart(7)} ${String(mixed.p99).padStart(7)} ${'-'.padStart(8)} ${'-'.padStart(6)} ${String(mixed.non2xx + mixed.errors).padStart(4)}`
)
table.push('', 'targets:')
for (const [name, value] of results.targets) table.push(`  ${name}: ${value}`)
const text = table.join('\n')
process.stdout.write(`${text}\n`)
writeFileSync(join(ROOT, 'tmp/bench.json'), JSON.stringify(results, null, 2))
writeFileSync(join(ROOT, 'tmp/bench.txt'), `${text}\n`)
log('written tmp/bench.json and tmp/bench.txt')
process.exit(0)
