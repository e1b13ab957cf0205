/*
| The front door's economics, both sides of each anonymous step (docs/front-door.md):
|
|   node --import @poppinss/ts-exec bench/front_door.ts        (npm run bench:front-door)
|
| 1. The fastest client: a native solver (node:crypto's scryptSync in a tight loop, no event loop
|    hop) over challenges with the served parameters: CPU ms per credential, levels 0 and 1.
| 2. The server, a real process on SQLite: CPU ms per request of each step (from /proc), against
|    what the fastest client spent to send it: challenge, slider (valid and garbage proofs of work),
|    slider verify, wrong-password login.
| 3. A flood: 100 loopback source addresses attack one account with credentials minted cheaply
|    (the server runs a trivial proof of work here: an attacker with unlimited CPU), while the
|    owner logs in with a device token and a bystander searches; their p50/p99.
*/
import { request as httpRequest } from 'node:http'
import { scryptSync } from 'node:crypto'
import { execFileSync, spawn } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { createChallenge } from 'altcha-lib'
import type { Challenge } from 'altcha-lib/types'
import { deriveKey } from 'altcha-lib/algorithms/scrypt'
import { DatabaseSync } from 'node:sqlite'
import pg from 'pg'
import { humanTrack } from '../tests/helpers/captcha.js'

const ROOT = new URL('..', import.meta.url).pathname
const DB_FILE = 'tmp/bench-front-door.sqlite3'
const FLOOD_SECONDS = Number(process.env.FLOOD_SECONDS ?? 30)
const ADMIN_PASSWORD = 'Bench-Front-Door-Passw0rd!'
const TICK_MS = 1000 / 100 // /proc stat clock ticks (USER_HZ)

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]
const round = (value: number) => Math.round(value * 100) / 100
const cpuMs = () => {
  const used = process.cpuUsage()
  return (used.user + used.system) / 1000
}

/** The fastest solver we have: every candidate key derived natively, synchronously. */
function nativeSolve(challenge: Challenge) {
  const { nonce, salt, cost, memoryCost, parallelism, keyLength, keyPrefix } = challenge.parameters
  const password = Buffer.alloc(nonce.length / 2 + 4)
  Buffer.from(nonce, 'hex').copy(password)
  const saltBuffer = Buffer.from(salt, 'hex')
  const options = { N: cost, r: memoryCost!, p: parallelism ?? 1, maxmem: 256 * cost * memoryCost! }
  for (let counter = 0; ; counter++) {
    password.writeUInt32BE(counter, nonce.length / 2)
    const key = scryptSync(password, saltBuffer, keyLength, options).toString('hex')
    if (key.startsWith(keyPrefix)) return { counter, derivedKey: key }
  }
}

// ------------------------------------------------------------------ 1. the fastest client
async function nativeCost(cost: number, keyPrefix: string, runs: number) {
  // Per evaluation (deterministic), times the mean number of evaluations: the expected cost.
  const password = Buffer.alloc(20)
  const options = { N: cost, r: 8, p: 1, maxmem: 512 * cost * 8 }
  const evalStart = cpuMs()
  for (let i = 0; i < 200; i++) {
    password.writeUInt32BE(i, 16)
    scryptSync(password, 'salt', 32, options)
  }
  const perEvaluation = (cpuMs() - evalStart) / 200
  // And whole solves (geometric: a sample mean of n runs is within ~1/sqrt(n) of the expectation).
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const challenge = await createChallenge({
      algorithm: 'SCRYPT',
      cost,
      memoryCost: 8,
      parallelism: 1,
      keyPrefix,
      deriveKey,
      hmacSignatureSecret: 'bench',
    })
    const start = cpuMs()
    nativeSolve(challenge)
    times.push(cpuMs() - start)
  }
  return {
    perEvaluationMs: round(perEvaluation),
    expectedMs: Math.round(perEvaluation * 16 ** keyPrefix.length),
    sampleMeanMs: Math.round(times.reduce((a, b) => a + b, 0) / times.length),
    sampleMedianMs: Math.round(median(times)),
    runs,
  }
}

// ------------------------------------------------------------------ the server process
type Server = { url: string; port: number; pid: number; stop: () => void }

function send(
  server: Server,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  from = '127.0.0.1'
): Promise<{ status: number; body: any; ms: number }> {
  const payload = body === undefined ? undefined : JSON.stringify(body)
  const start = performance.now()
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        method,
        path,
        localAddress: from,
        agent: false,
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        let text = ''
        res.on('data', (chunk) => (text += chunk))
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            body: text ? JSON.parse(text) : null,
            ms: performance.now() - start,
          })
        )
      }
    )
    req.on('error', reject)
    req.end(payload)
  })
}

const serverCpuMs = (server: Server) => {
  const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS
}

/** FRONT_DOOR_DB=pg runs the server on PostgreSQL (database adonis_rbac_front_door, recreated). */
const ON_PG = process.env.FRONT_DOOR_DB === 'pg'
const PG_DATABASE = 'adonis_rbac_front_door'
const pgClient = (database: string) =>
  new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database })
let answers: pg.Client | undefined

async function startServer(env: Record<string, string>): Promise<Server> {
  await answers?.end()
  answers = undefined
  rmSync(`${ROOT}${DB_FILE}`, { force: true })
  if (ON_PG) {
    const admin = pgClient('postgres')
    await admin.connect()
    await admin.query(`DROP DATABASE IF EXISTS ${PG_DATABASE} WITH (FORCE)`)
    await admin.query(`CREATE DATABASE ${PG_DATABASE}`)
    await admin.end()
  }
  const base = {
    ...process.env,
    NODE_ENV: 'test',
    SQLITE_FILE: DB_FILE,
    DB_CONNECTION: ON_PG ? 'pg' : 'sqlite',
    PG_DB_NAME: PG_DATABASE,
    LIMITER_STORE: 'database',
    ADMIN_ACCOUNT: 'admin',
    ADMIN_PASSWORD,
    LOG_LEVEL: 'warn',
    ...env,
  }
  execFileSync(process.execPath, ['ace', 'migration:run', '--force'], { cwd: ROOT, env: base })
  execFileSync(process.execPath, ['ace', 'db:seed'], { cwd: ROOT, env: base })
  if (ON_PG) {
    answers = pgClient(PG_DATABASE)
    await answers.connect()
  }
  const port = 3500 + Math.floor(Math.random() * 400)
  const child = spawn(process.execPath, ['--import', '@poppinss/ts-exec', 'bin/server.ts'], {
    cwd: ROOT,
    env: { ...base, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const server = {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid!,
    stop: () => child.kill(),
  }
  for (let i = 0; i < 300; i++) {
    try {
      if ((await send(server, 'GET', '/api/health/live')).status === 200) return server
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('server did not start')
}

/** The slider's answer, read from the database: it stands for the attacker's ~17 ms pixel solver. */
const sqlite = () => new DatabaseSync(`${ROOT}${DB_FILE}`, { readOnly: true })
async function answerOf(captchaId: string) {
  const sql = 'SELECT answer_x FROM captcha_challenges WHERE id = '
  if (answers) return Number((await answers.query(`${sql}$1`, [captchaId])).rows[0].answer_x)
  const connection = sqlite()
  try {
    return Number((connection.prepare(`${sql}?`).get(captchaId) as any).answer_x)
  } finally {
    connection.close()
  }
}

/** The whole client flow; `solve` decides what the proof of work costs the caller. */
async function credential(
  server: Server,
  from: string,
  options: { account?: string; device?: string } = {}
) {
  const query = options.account ? `?account=${options.account}` : ''
  const headers: Record<string, string> = options.device ? { 'x-device-token': options.device } : {}
  const challenge = await send(server, 'GET', `/api/auth/captcha${query}`, undefined, headers, from)
  if (challenge.status !== 200) return { status: challenge.status }
  const pow = challenge.body.data.pow
  const slider = await send(
    server,
    'POST',
    '/api/auth/captcha',
    { pow: { challenge: pow, solution: nativeSolve(pow) } },
    {},
    from
  )
  if (slider.status !== 200) return { status: slider.status }
  const { captchaId } = slider.body.data
  const x = await answerOf(captchaId)
  const verify = await send(
    server,
    'POST',
    '/api/auth/captcha/verify',
    { captchaId, x, track: humanTrack(x) },
    {},
    from
  )
  if (verify.status !== 200) return { status: verify.status }
  return {
    status: 200,
    captchaToken: verify.body.data.captchaToken as string,
    ms: { challenge: challenge.ms, slider: slider.ms, verify: verify.ms },
  }
}

/** Server CPU per request over `runs` calls of `step`, and the client's CPU for the same calls. */
async function perRequest(server: Server, runs: number, step: (i: number) => Promise<unknown>) {
  const serverStart = serverCpuMs(server)
  const clientStart = cpuMs()
  for (let i = 0; i < runs; i++) await step(i)
  return {
    serverCpuMs: round((serverCpuMs(server) - serverStart) / runs),
    clientCpuMs: round((cpuMs() - clientStart) / runs),
  }
}

const results: Record<string, unknown> = {}

console.log('1. native solver (scryptSync), default parameters N=1024 r=8')
results.nativeLevel0 = await nativeCost(1024, '00', Number(process.env.NATIVE_RUNS ?? 30))
results.nativeLevel1 = await nativeCost(
  4096,
  '00',
  Math.max(1, Math.round(Number(process.env.NATIVE_RUNS ?? 30) / 3))
)
console.log(results)

console.log(
  `2. server CPU per anonymous step (${ON_PG ? 'PostgreSQL' : 'SQLite'}, default proof of work)`
)
{
  const server = await startServer({
    CAPTCHA_POW_COST: '1024',
    CAPTCHA_POW_BLOCK_SIZE: '8',
    LIMIT_CAPTCHA_PER_MINUTE: '100000',
    LIMIT_LOGIN_FAILURES_PER_IP: '100000',
    LIMIT_LOGIN_FAILURES_PER_ACCOUNT: '100000',
  })
  try {
    // Warm-up: JIT, connections, the dummy digest.
    for (let i = 0; i < 3; i++) await credential(server, '127.0.0.1')
    const steps: Record<string, unknown> = {}
    steps['GET /api/auth/captcha (challenge)'] = await perRequest(server, 200, () =>
      send(server, 'GET', '/api/auth/captcha')
    )
    const pows: any[] = []
    for (let i = 0; i < 10; i++) {
      const pow = (await send(server, 'GET', '/api/auth/captcha')).body.data.pow
      pows.push({ challenge: pow, solution: nativeSolve(pow) })
    }
    const sliders: string[] = []
    steps['POST /api/auth/captcha, solved (verify + draw)'] = await perRequest(
      server,
      pows.length,
      async (i) => {
        sliders.push(
          (await send(server, 'POST', '/api/auth/captcha', { pow: pows[i] })).body.data.captchaId
        )
      }
    )
    const garbage = (await send(server, 'GET', '/api/auth/captcha')).body.data.pow
    steps['POST /api/auth/captcha, garbage solution'] = await perRequest(server, 50, (i) =>
      send(server, 'POST', '/api/auth/captcha', {
        pow: { challenge: garbage, solution: { counter: i, derivedKey: '00'.repeat(32) } },
      })
    )
    steps['POST /api/auth/captcha, foreign signature'] = await perRequest(server, 50, (i) =>
      send(server, 'POST', '/api/auth/captcha', {
        pow: {
          challenge: { ...garbage, signature: '00'.repeat(32) },
          solution: { counter: i, derivedKey: '00'.repeat(32) },
        },
      })
    )
    steps['POST /api/auth/captcha, malformed (422)'] = await perRequest(server, 50, () =>
      send(server, 'POST', '/api/auth/captcha', { pow: { challenge: 'x' } })
    )
    const tokens: string[] = []
    steps['POST /api/auth/captcha/verify (slider)'] = await perRequest(
      server,
      sliders.length,
      async (i) => {
        const x = await answerOf(sliders[i])
        tokens.push(
          (
            await send(server, 'POST', '/api/auth/captcha/verify', {
              captchaId: sliders[i],
              x,
              track: humanTrack(x),
            })
          ).body.data.captchaToken
        )
      }
    )
    steps['POST /api/auth/login, wrong password (argon2id)'] = await perRequest(
      server,
      tokens.length,
      (i) =>
        send(server, 'POST', '/api/auth/login', {
          account: 'admin',
          password: `Wrong-${i}`,
          captchaToken: tokens[i],
        })
    )
    steps['GET /api/health (reference)'] = await perRequest(server, 200, () =>
      send(server, 'GET', '/api/health/live')
    )
    results.steps = steps
    console.log(steps)
  } finally {
    server.stop()
  }
}

console.log(`3. flood: 100 addresses on one account for ${FLOOD_SECONDS} s (trivial proof of work)`)
{
  // The per-address limits are the defaults: the attacker has 100 addresses, not unlimited ones.
  const server = await startServer({ CAPTCHA_POW_COST: '16', CAPTCHA_POW_BLOCK_SIZE: '1' })
  try {
    const first = await credential(server, '127.0.0.1', { account: 'admin' })
    const login = await send(server, 'POST', '/api/auth/login', {
      account: 'admin',
      password: ADMIN_PASSWORD,
      captchaToken: first.captchaToken,
    })
    const deviceToken = login.body.data.deviceToken as string
    const until = Date.now() + FLOOD_SECONDS * 1000
    const attackerStatuses: Record<string, number> = {}
    const attackers = Array.from({ length: 100 }, async (_, i) => {
      const from = `127.0.3.${i + 1}`
      while (Date.now() < until) {
        const minted = await credential(server, from, { account: 'admin' })
        const status = minted.captchaToken
          ? (
              await send(
                server,
                'POST',
                '/api/auth/login',
                {
                  account: 'admin',
                  password: `Guess-${Math.random()}`,
                  captchaToken: minted.captchaToken,
                },
                {},
                from
              )
            ).status
          : minted.status
        attackerStatuses[status] = (attackerStatuses[status] ?? 0) + 1
        if (status === 429) await new Promise((resolve) => setTimeout(resolve, 50))
      }
    })
    const owner: number[] = []
    const ownerFlow: number[] = []
    const ownerStatuses: Record<string, number> = {}
    const ownerSteps: { challenge: number; slider: number; verify: number }[] = []
    const ownerLoop = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 2000))
      while (Date.now() < until) {
        const start = performance.now()
        const minted = await credential(server, '127.0.0.200', {
          account: 'admin',
          device: deviceToken,
        })
        const reply = minted.captchaToken
          ? await send(
              server,
              'POST',
              '/api/auth/login',
              {
                account: 'admin',
                password: ADMIN_PASSWORD,
                captchaToken: minted.captchaToken,
                deviceToken,
              },
              {},
              '127.0.0.200'
            )
          : { status: minted.status, ms: 0 }
        ownerStatuses[reply.status] = (ownerStatuses[reply.status] ?? 0) + 1
        if (reply.status === 200) {
          owner.push(reply.ms)
          ownerFlow.push(performance.now() - start)
          ownerSteps.push(minted.ms!)
        }
        // A person's pace (and under the captcha's 30 per minute per address).
        await new Promise((resolve) => setTimeout(resolve, 2000))
      }
    })()
    const bystander: number[] = []
    const bystanderStatuses: Record<string, number> = {}
    const bystanderLoop = (async () => {
      while (Date.now() < until) {
        const reply = await send(
          server,
          'GET',
          '/api/articles?keyword=article',
          undefined,
          {},
          '127.0.0.201'
        )
        bystanderStatuses[reply.status] = (bystanderStatuses[reply.status] ?? 0) + 1
        bystander.push(reply.ms)
        // Under the per-address search limit (60 per minute).
        await new Promise((resolve) => setTimeout(resolve, 1100))
      }
    })()
    await Promise.all([...attackers, ownerLoop, bystanderLoop])
    results.flood = {
      attackerStatuses,
      ownerLogins: owner.length,
      ownerStatuses,
      ownerLoginMs: {
        p50: round(median(owner)),
        p99: round(percentile(owner, 0.99)),
        max: round(Math.max(...owner)),
      },
      ownerCaptchaStepsMaxMs: Object.fromEntries(
        (['challenge', 'slider', 'verify'] as const).map((step) => [
          step,
          round(Math.max(...ownerSteps.map((steps) => steps[step]))),
        ])
      ),
      ownerWholeFlowMs: { p50: round(median(ownerFlow)), p99: round(percentile(ownerFlow, 0.99)) },
      bystanderSearchMs: { p50: round(median(bystander)), p99: round(percentile(bystander, 0.99)) },
      bystanderStatuses,
    }
    console.log(results.flood)
  } finally {
    server.stop()
  }
}
await answers?.end()
console.log(JSON.stringify(results, null, 2))
