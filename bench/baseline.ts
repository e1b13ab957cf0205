/*
| npm run bench -- --baseline <git-rev>: the hot paths of this tree against the build of <rev>,
| in one run on one database, interleaved. <rev> is exported (git archive) to
| tmp/bench-baseline/<sha>/ and built there (kept: a second run reuses it); this tree is built
| into build/ as `npm run bench` does. Both servers run as this tree's `npm start` does (its
| environment and node flags), side by side on two ports, and only one is loaded at a time: each
| round runs every scenario on both, the order flipping each round (ABBA), so machine noise falls
| on both sides alike. Printed per scenario:
| req/s of each and their ratio, p99, and node and PostgreSQL CPU ms per request (median, and the
| least disturbed run's: the figure to trust on a busy machine, where contention only adds).
|
| Same settings as bench/run.ts (BENCH_DB, BENCH_PG_DB, BENCH_RUNS, BENCH_DURATION,
| BENCH_CONNECTIONS, BENCH_SKIP_BUILD), plus BENCH_NODE_FLAGS: V8/Node flags for both servers
| (e.g. "--cpu-prof --cpu-prof-dir=tmp/prof"), and BENCH_ONLY=<regex> to run only the scenarios
| whose name matches. Both builds use the schema this tree migrates, so
| <rev> must read the same tables (a recent commit). Writes tmp/bench-baseline.{json,txt}.
| BENCH_SCOPE_USERS=<n> adds the users list of a scoped administrator (pages of 10 and 100, n accounts over
| the department tree of bench/dataset.ts; issue 45's figure: 100000).
|
| Memory: BENCH_SOAK=<seconds> then soaks both servers at once under the same fixed-rate mixed
| load (BENCH_SOAK_RATE/s, default 300, plus /me alone at a sixth of it) and reports RSS (after
| the first minute, at the end, highest), its private part (RssAnon: at the end, highest), the
| share of the server's CPU spent in GC pauses (--trace-gc) and /me's p99. BENCH_BASELINE_FLAGS and BENCH_BASELINE_ENV ("K=V K=V") apply to
| the baseline server only, after `npm start`'s: `--baseline HEAD` with them compares settings on
| one build (Node's defaults: BENCH_BASELINE_ENV=MALLOC_ARENA_MAX= with
| BENCH_BASELINE_FLAGS=--max-semi-space-size=0). BENCH_RUNS=0 skips the rounds. Printed after the
| rounds: each server's RSS and the load average; BENCH_COLD=<n>: the cold start of each, n times.
|
| npm run bench -- --reference: this tree against the hand-written server of issue 52
| (bench/reference_server.ts: node:http and pg, the project's statements and held answers) in
| place of <rev>'s build, for the scenarios it serves (readiness, /me, the public list and detail,
| the scoped users list with BENCH_SCOPE_USERS; not the bell nor the refused login). Its types are
| stripped once (node:module's stripTypeScriptTypes) to tmp/bench-reference/server.mjs, which runs
| as `npm start` runs the project (its environment and node flags; plain JS, as the project's
| build is). Before measuring, both run once more with DB_QUERY_EVENTS=true and
| bench/reference_check.ts stops the bench unless every scenario gets the same status, body bytes,
| content-type, ETag, Cache-Control, Last-Modified, header names and statements per request from
| both. Printed per scenario: req/s, node and PostgreSQL CPU ms per request of each, the CPU ratio
| reference / this (node + PostgreSQL: issue 52 asks >= 0.7 of the public list and detail), p99
| and the statements per request (one at a time; under concurrency of each); then RSS after the
| rounds and, with BENCH_COLD, the cold starts, as this / reference (issue 52: <= 1.5 and <= 2).
| No soak. Writes tmp/bench-reference.{json,txt}.
*/
import { execFileSync, execSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, openSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { stripTypeScriptTypes } from 'node:module'
import { cpus, loadavg } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { login } from './client.js'
import { type Identity, type Probe, checkIdentity } from './reference_check.js'
import { createDataset, createScopeDataset } from './dataset.js'
import { answerOf, benchAppEnv, benchDbConfig, ensurePgDatabase, openDb } from './db.js'
import { freePort, send, waitUntilUp } from './http.js'
import { type Run, type Scenario, load, measuredRun } from './measure.js'
import { anonMbOf, cpuMsOf, median, round2, rssMbOf, startCommand } from './processes.js'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
/** --reference: the other side is the hand-written server, not a build of <rev>. */
const REFERENCE = process.argv.includes('--reference')
const rev = REFERENCE ? 'HEAD' : process.argv[process.argv.indexOf('--baseline') + 1]
if (!rev || rev.startsWith('--')) throw new Error('usage: npm run bench -- --baseline <git-rev>')
/** What the other side is called in the report. */
const OTHER = REFERENCE ? 'ref' : 'base'
const OUTPUT = REFERENCE ? 'bench-reference' : 'bench-baseline'
const DB = process.env.BENCH_DB === 'sqlite' ? 'sqlite' : 'pg'
const DURATION = Number(process.env.BENCH_DURATION ?? 5)
const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)
const words = (value = '') => value.split(' ').filter(Boolean)
const NODE_FLAGS = words(process.env.BENCH_NODE_FLAGS)
// Settings for the baseline server only (to compare settings on one build: --baseline HEAD).
const BASELINE_FLAGS = words(process.env.BENCH_BASELINE_FLAGS)
const BASELINE_ENV = Object.fromEntries(
  words(process.env.BENCH_BASELINE_ENV).map((pair) => pair.split(/=(.*)/s).slice(0, 2))
)
const SOAK = Number(process.env.BENCH_SOAK ?? 0)
if (SOAK && REFERENCE) throw new Error('BENCH_SOAK: the reference does not serve the soak mix')
const SCOPED_LIST = Boolean(process.env.BENCH_SCOPE_USERS)
const SOAK_RATE = Number(process.env.BENCH_SOAK_RATE ?? 300)
const ADMIN_PASSWORD = 'Bench-Root-Passw0rd!'
const SMALL = 10_000

const loadAtStart = loadavg()
  .map((value) => Math.round(value * 100) / 100)
  .join(' ')
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
const baselineDir = REFERENCE
  ? join(ROOT, 'tmp/bench-reference')
  : join(ROOT, 'tmp/bench-baseline', sha)
/** The reference as `node` runs it: plain JS (the types blanked out, positions kept). */
const REFERENCE_JS = join(baselineDir, 'server.mjs')
if (REFERENCE) {
  mkdirSync(baselineDir, { recursive: true })
  const source = readFileSync(join(ROOT, 'bench/reference_server.ts'), 'utf8')
  writeFileSync(REFERENCE_JS, stripTypeScriptTypes(source))
} else if (!existsSync(join(baselineDir, 'build/bin/server.js'))) {
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
const dbConfig = benchDbConfig(DB, ROOT)
const appEnv = benchAppEnv(dbConfig, ADMIN_PASSWORD)
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
if (SCOPED_LIST) await createScopeDataset(dbConfig)
ace('articles:load', `--count=${SMALL}`)

// ---------------------------------------------------------------- servers
type Side = keyof typeof builds
const sides: Side[] = ['this', 'baseline']
const startScript = startCommand(ROOT)
/**
 * A side's server as this tree's `npm start` runs it (its environment and node flags; the
 * baseline's own settings after them): the command and directory, the environment.
 */
const startOf = (side: Side, flags: string[] = [], env: Record<string, string> = {}) => {
  const baseline = side === 'baseline'
  const script = baseline && REFERENCE ? REFERENCE_JS : startScript.args.at(-1)!
  const args = [
    ...startScript.args.slice(0, -1),
    ...flags,
    ...(baseline ? BASELINE_FLAGS : []),
    script,
  ]
  return {
    args,
    cwd: baseline && REFERENCE ? ROOT : builds[side],
    env: { ...appEnv, ...startScript.env, ...(baseline ? BASELINE_ENV : {}), ...env },
  }
}
/** `stop` resolves when the process has exited. */
type Server = { base: string; pid: number; pg: string | false; stop: () => Promise<unknown> }
async function startServer(side: Side, env: Record<string, string> = {}): Promise<Server> {
  const port = await freePort()
  // The soak counts GC pauses from --trace-gc lines on the server's stdout.
  const gcLog = SOAK ? openSync(join(ROOT, `tmp/bench-soak-${side}.gc.log`), 'w') : 'ignore'
  const start = startOf(side, [...NODE_FLAGS, ...(SOAK ? ['--trace-gc'] : [])], {
    ...env,
    PORT: String(port),
  })
  const child = spawn(process.execPath, start.args, {
    cwd: start.cwd,
    env: start.env,
    stdio: ['ignore', gcLog, 'inherit'],
  })
  const exited = new Promise((done) => child.once('exit', done))
  const stop = () => (child.exitCode === null && child.kill('SIGTERM'), exited)
  process.on('exit', stop)
  const pg = dbConfig.db === 'pg' && dbConfig.pg.database
  const server = { base: `http://127.0.0.1:${port}`, pid: child.pid!, pg, stop }
  await waitUntilUp(server.base, '/api/health')
  return server
}
const servers = {} as Record<Side, Server>
for (const side of sides) servers[side] = await startServer(side)

// Tokens are valid on both servers (one JWT secret, one sessions table).
const db = openDb(dbConfig)
const answer = (captchaId: string) => answerOf(db, captchaId)
// bench.admin's token, bench.small's, and ten sessions of bench.small's own: concurrent requests
// that share no token (the guard's shared statement then carries several pairs, not one). Both
// servers log in as often (captchas drawn with sharp, passwords hashed with argon2: the soak's
// RSS compares like with like); the tokens of either work on both.
const accounts = ['bench.admin', ...Array.from({ length: 11 }, () => 'bench.small')]
const logins = async (side: Side) => {
  const tokens: string[] = []
  for (const account of accounts) {
    tokens.push(await login(servers[side].base, answer, account, ADMIN_PASSWORD))
  }
  return tokens
}
const [bigToken, smallToken, ...sessionTokens] = await logins('this')
// The reference serves no login: the project's tokens are its only ones.
if (!REFERENCE) await logins('baseline')
const scopedToken = SCOPED_LIST
  ? await login(servers.this.base, answer, 'bench.scoped', ADMIN_PASSWORD)
  : ''
const firstSlug = (await send(servers.this.base, 'GET', '/api/articles?pageSize=1')).body.data[0]
  .slug
await db.end()
// The bench's address is blocked for logins (bogus credentials), on both servers.
for (const side of REFERENCE ? ['this' as const] : sides) {
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
  '/me, 1 role, 10 sessions': {
    path: '/api/auth/me',
    requests: sessionTokens.map((token) => ({
      method: 'GET',
      path: '/api/auth/me',
      headers: auth(token),
    })),
  },
  'notices bell, 20 notices': { path: '/api/auth/notices', headers: auth(smallToken) },
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
if (SCOPED_LIST) {
  for (const size of [10, 100]) {
    scenarios[`users page of ${size}, scoped`] = {
      path: `/api/admin/users?pageSize=${size}`,
      headers: auth(scopedToken),
    }
  }
}
// BENCH_ONLY=<regex>: only the scenarios whose name matches (e.g. to profile one of them).
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null
/** What the reference serves (bench/reference_server.ts). */
const REFERENCE_SERVES = /^(readiness|\/me|list page|detail|users page)/
for (const name of Object.keys(scenarios)) {
  if ((only && !only.test(name)) || (REFERENCE && !REFERENCE_SERVES.test(name))) {
    delete scenarios[name]
  }
}

// ---------------------------------------------------------------- identity (--reference)
// Both once more with DB_QUERY_EVENTS=true (their statement counts; not in the measured ones).
const identity: Record<string, Identity> = {}
if (REFERENCE) {
  log('checking that the reference answers as the project (bench/reference_check.ts)')
  const counted = {
    this: await startServer('this', { DB_QUERY_EVENTS: 'true' }),
    baseline: await startServer('baseline', { DB_QUERY_EVENTS: 'true' }),
  }
  const bases = { project: counted.this.base, reference: counted.baseline.base }
  try {
    const probes: Record<string, Probe[]> = {}
    for (const [name, scenario] of Object.entries(scenarios)) {
      const { path, method = 'GET', headers } = scenario
      probes[name] = scenario.requests ?? [{ path, method, headers }]
    }
    probes['detail, unknown slug'] = [{ method: 'GET', path: '/api/articles/no-such-article' }]
    for (const [name, list] of Object.entries(probes)) {
      identity[name] = await checkIdentity(name, bases, list)
    }
  } finally {
    // Gone before the measured servers are warmed up and loaded.
    await Promise.all([counted.this.stop(), counted.baseline.stop()])
  }
}
/** The per-request CPU targets of issue 27 (node, and PostgreSQL where one is set). */
const TARGETS: Record<string, string> = {
  'readiness (/api/health)': '0.10',
  '/me, 20 roles / 500 menus': '0.20',
  '/me, 1 role / 10 menus': '0.18',
  '/me, 1 role, 10 sessions': '0.18',
  // Issue 51: the bell polled by every open console costs at most twice /me.
  'notices bell, 20 notices': '0.36',
  'list page 1': '0.20 / pg 0.30',
  'detail': '0.12',
  'login refused by the limiter': '0.08',
  'users page of 10, scoped': '0.50 / pg 1.50',
  'users page of 100, scoped': '1.20',
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

// ---------------------------------------------------------------- soak (BENCH_SOAK seconds)
// Both servers at once, each under the same fixed-rate mixed load (the mix of bench/run.ts) plus
// /me alone at a sixth of that rate for its p99; RSS sampled every 10 s; GC pauses summed from
// --trace-gc and set against the server's CPU time over the soak.
const soak: Record<string, unknown> = {}
if (SOAK) {
  const mix = [
    { method: 'GET', path: '/api/auth/me', headers: auth(bigToken) },
    { method: 'GET', path: '/api/articles?pageNum=1&pageSize=10' },
    { method: 'GET', path: `/api/articles/${firstSlug}` },
    { method: 'GET', path: '/api/articles?keyword=zqxjvw' },
    { method: 'GET', path: '/api/auth/me', headers: auth(smallToken) },
    { method: 'GET', path: '/api/health' },
  ]
  log(`soak: ${SOAK} s on both servers at once, ${SOAK_RATE}/s mixed + ${SOAK_RATE / 6}/s /me`)
  const gcLines = (side: Side) =>
    readFileSync(join(ROOT, `tmp/bench-soak-${side}.gc.log`), 'utf8').split('\n')
  const gcMs = (side: Side) =>
    gcLines(side).reduce((sum, line) => sum + Number(/ MB, ([\d.]+) \/ /.exec(line)?.[1] ?? 0), 0)
  // V8's page pool: heap pages freed by a collection stay committed (resident) for reuse until a
  // memory-reducing collection, which V8 runs only when the allocation rate is low.
  const pooledMb = (side: Side) =>
    Number(
      gcLines(side)
        .findLast((line) => line.includes('pooled: '))
        ?.match(/pooled: (\d+)/)?.[1]
    )
  const start = Object.fromEntries(
    sides.map((side) => [side, { cpu: cpuMsOf(servers[side].pid), gc: gcMs(side) }])
  )
  const rss: Record<Side, number[]> = { this: [], baseline: [] }
  const anon: Record<Side, number[]> = { this: [], baseline: [] }
  const sampler = setInterval(() => {
    for (const side of sides) {
      rss[side].push(rssMbOf(servers[side].pid))
      anon[side].push(anonMbOf(servers[side].pid))
    }
  }, 10_000)
  const loads = sides.flatMap((side) => [
    load(servers[side].base, { path: '/', requests: mix, overallRate: SOAK_RATE }, SOAK, 6),
    load(
      servers[side].base,
      { path: '/api/auth/me', headers: auth(bigToken), overallRate: SOAK_RATE / 6 },
      SOAK,
      2
    ),
  ])
  const [thisMix, thisMe, baseMix, baseMe] = await Promise.all(loads)
  clearInterval(sampler)
  for (const [side, mixed, me] of [
    ['this', thisMix, thisMe],
    ['baseline', baseMix, baseMe],
  ] as const) {
    const cpu = cpuMsOf(servers[side].pid) - start[side].cpu
    const gc = gcMs(side) - start[side].gc
    soak[side] = {
      requests: mixed.total + me.total,
      bad: mixed.errors + mixed.non2xx + me.errors + me.non2xx,
      mixedP99: mixed.p99,
      meP99: me.p99,
      rssAfterMinuteMb: rss[side][5],
      rssEndMb: rss[side].at(-1),
      rssMaxMb: Math.max(...rss[side]),
      anonEndMb: anon[side].at(-1),
      anonMaxMb: Math.max(...anon[side]),
      v8PooledEndMb: pooledMb(side),
      gcPauseShareOfCpu: round2((gc / Math.max(1, cpu)) * 100),
      cpuMsPerRequest: round2(cpu / Math.max(1, mixed.total + me.total)),
    }
  }
}
// RSS after the rounds (and the soak, when one ran).
const rssAfterLoad = Object.fromEntries(sides.map((side) => [side, rssMbOf(servers[side].pid)]))
await Promise.all(sides.map((side) => servers[side].stop()))

// ---------------------------------------------------------------- cold start (BENCH_COLD=<n>)
// `npm start`'s command to the first 200 of /api/health (polled every 5 ms), n times per side,
// alternating, one server at a time.
const COLD = Number(process.env.BENCH_COLD ?? 0)
const coldMs: Record<Side, number[]> = { this: [], baseline: [] }
for (let i = 0; i < COLD * 2; i++) {
  const side = sides[i % 2]
  const port = await freePort()
  const started = performance.now()
  const start = startOf(side, [], { PORT: String(port) })
  const child = spawn(process.execPath, start.args, {
    cwd: start.cwd,
    env: start.env,
    stdio: 'ignore',
  })
  const base = `http://127.0.0.1:${port}`
  for (;;) {
    const status = await send(base, 'GET', '/api/health').then(
      (r) => r.status,
      () => 0
    )
    if (status === 200) break
    await new Promise((done) => setTimeout(done, 5))
  }
  coldMs[side].push(Math.round(performance.now() - started))
  child.kill('SIGTERM')
  await new Promise((done) => child.once('exit', done))
}

// ---------------------------------------------------------------- report
const figure = (list: Run[], pick: (run: Run) => number) => median(list.map(pick))
// Thousandths against the reference: its figures are a few hundredths of a ms.
const cpu = (ms: number) => (REFERENCE ? Math.round(ms * 1000) / 1000 : round2(ms))
const rows = Object.entries(runs).map(([name, bySide]) => {
  const of = (side: Side) => {
    const node = figure(bySide[side], (r) => r.serverCpuMsPerRequest)
    // The least disturbed run: on a busy machine waiting for a core only adds CPU per request.
    const nodeMin = Math.min(...bySide[side].map((r) => r.serverCpuMsPerRequest))
    const pgCpu = figure(bySide[side], (r) => r.pgCpuMsPerRequest)
    return {
      requestsPerSecond: Math.round(figure(bySide[side], (r) => r.requestsPerSecond)),
      p99: figure(bySide[side], (r) => r.p99),
      nodeCpuMs: cpu(node),
      nodeCpuMsMin: cpu(nodeMin),
      pgCpuMs: cpu(pgCpu),
      unexpected: bySide[side].reduce(
        (sum, r) => sum + r.errors + (scenarios[name].expect ? 0 : r.non2xx),
        0
      ),
      // node + PostgreSQL, unrounded: what the CPU ratio divides.
      sums: { median: node + pgCpu, min: nodeMin + pgCpu },
    }
  }
  const current = of('this')
  const baseline = of('baseline')
  // node + PostgreSQL CPU per request, the other side's over this tree's (issue 52's measure).
  const cpuRatio = (pick: (sums: typeof current.sums) => number) =>
    round2(pick(baseline.sums) / Math.max(0.001, pick(current.sums)))
  return {
    name,
    this: current,
    baseline,
    ratio: round2(current.requestsPerSecond / Math.max(1, baseline.requestsPerSecond)),
    cpuRatio: cpuRatio((sums) => sums.median),
    cpuRatioMin: cpuRatio((sums) => sums.min),
    target: TARGETS[name],
  }
})
type Row = (typeof rows)[number]
/** Each mode's table: a column's head, width and cell (the scenario's name first). */
const COLUMNS: [string, number, (row: Row) => string | number][] = REFERENCE
  ? [
      ['scenario', 28, (row) => row.name],
      ['req/s', 7, (row) => row.this.requestsPerSecond],
      ['ref', 7, (row) => row.baseline.requestsPerSecond],
      ['node cpu', 9, (row) => row.this.nodeCpuMs],
      ['ref', 8, (row) => row.baseline.nodeCpuMs],
      ['pg cpu', 9, (row) => row.this.pgCpuMs],
      ['ref', 8, (row) => row.baseline.pgCpuMs],
      ['ref/this', 8, (row) => row.cpuRatio],
      ['min runs', 9, (row) => row.cpuRatioMin],
      ['p99 ms', 9, (row) => `${row.this.p99}/${row.baseline.p99}`],
      ['stmts', 8, (row) => identity[row.name].sequential],
      [
        'concurrent',
        11,
        ({ name }) => `${identity[name].concurrent.project}/${identity[name].concurrent.reference}`,
      ],
    ]
  : [
      ['scenario', 30, (row) => row.name],
      ['req/s', 7, (row) => row.this.requestsPerSecond],
      ['base', 7, (row) => row.baseline.requestsPerSecond],
      ['ratio', 6, (row) => row.ratio],
      ['node cpu', 9, (row) => row.this.nodeCpuMs],
      ['base cpu', 9, (row) => row.baseline.nodeCpuMs],
      ['min cpu', 10, (row) => `${row.this.nodeCpuMsMin}/${row.baseline.nodeCpuMsMin}`],
      ['pg cpu', 10, (row) => `${row.this.pgCpuMs}/${row.baseline.pgCpuMs}`],
      ['p99 ms', 8, (row) => `${row.this.p99}/${row.baseline.p99}`],
      ['target (node)', 15, (row) => row.target],
    ]
const cells = (values: (string | number)[]) =>
  values.map((value, i) => String(value)[i ? 'padStart' : 'padEnd'](COLUMNS[i][1])).join(' ')
const against = REFERENCE ? 'the hand-written reference' : `${rev} (${sha.slice(0, 10)})`
const lines = [
  `this tree vs ${against} on ${DB}, node ${process.version}, ${cpus().length} cores, ${RUNS} interleaved rounds x ${DURATION} s, ${CONNECTIONS} connections (medians); CPU = ms per request`,
  '',
  cells(COLUMNS.map(([head]) => head)),
  ...rows
    .slice(0, RUNS ? rows.length : 0)
    .map((row) => cells(COLUMNS.map(([, , cell]) => cell(row)))),
]
if (REFERENCE) {
  lines.push(
    '',
    'ref/this: node + PostgreSQL CPU per request, the reference over this tree (median runs; "min',
    'runs": each side\'s least disturbed node figure). stmts: statements per request one at a time,',
    'the same on both (checked); concurrent: this/ref with 10 clients at once (shared reads).'
  )
}
/** this / the other side, for RSS and cold start (issue 52 bounds them against the reference). */
const times = (a: number, b: number) => (REFERENCE ? ` (${round2(a / Math.max(1, b))}x)` : '')
lines.push(
  '',
  `RSS after the rounds, MB: ${rssAfterLoad.this} / ${rssAfterLoad.baseline} (this / ${OTHER})${times(rssAfterLoad.this, rssAfterLoad.baseline)}; load average at the start ${loadAtStart}, at the end ${loadavg().map(round2).join(' ')}`
)
if (COLD) {
  const [mine, other] = [median(coldMs.this), median(coldMs.baseline)]
  lines.push(
    `cold start (npm start -> first 200 of /api/health), median of ${COLD}: ${mine} / ${other} ms${times(mine, other)} (${coldMs.this.join(' ')} / ${coldMs.baseline.join(' ')})`
  )
}
if (SOAK) {
  lines.push(
    '',
    `soak ${SOAK} s, both servers at once (${SOAK_RATE}/s mixed + ${SOAK_RATE / 6}/s /me each):`
  )
  for (const side of sides) lines.push(`  ${side}: ${JSON.stringify(soak[side])}`)
}
const bad = rows.filter((row) => row.this.unexpected || row.baseline.unexpected)
if (bad.length) lines.push('', `unexpected answers: ${bad.map((row) => row.name).join(', ')}`)
const text = lines.join('\n')
process.stdout.write(`${text}\n`)
const other = REFERENCE ? { against: 'reference' } : { rev, sha }
const when = new Date().toISOString()
writeFileSync(
  join(ROOT, `tmp/${OUTPUT}.json`),
  JSON.stringify(
    { ...other, db: DB, when, rows, identity, soak, runs, rssAfterLoad, coldMs },
    null,
    2
  )
)
writeFileSync(join(ROOT, `tmp/${OUTPUT}.txt`), `${text}\n`)
log(`written tmp/${OUTPUT}.json and tmp/${OUTPUT}.txt`)
// Let the servers write what NODE_FLAGS asked for (e.g. a CPU profile) before leaving.
await new Promise((done) => setTimeout(done, 2000))
process.exit(0)
