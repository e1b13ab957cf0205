/*
| The front door's economics, both sides of each anonymous step (docs/front-door.md):
|
|   node --import @poppinss/ts-exec bench/front_door.ts        (npm run bench:front-door)
|
| 0. The person: Chromium driving the built console against a real server, the wait per level
|    (p50/p90/p99, PERSON_RUNS logins each, default 30), and one evaluation's CPU in Chromium
|    against node:crypto (bench/person_chromium.ts). Run it alone: `flock /tmp/browser.lock`.
| 1. The fastest client: a native solver (node:crypto's scryptSync in a tight loop, no event loop
|    hop) over challenges with the served parameters: CPU ms per credential, per level.
| 2. The server, a real process on SQLite: CPU ms per request of each step (from /proc), against
|    what the fastest client spent to send it: challenge, slider (valid and garbage proofs of work),
|    slider verify, wrong-password login.
| 3. A flood: 100 loopback source addresses attack one account with credentials minted cheaply
|    (the server runs a trivial proof of work here: an attacker with unlimited CPU), while the
|    owner logs in with a (rotating) device token and a bystander searches; their p50/p99, and
|    the passwords checked for the account (the ceiling: LOGIN_ACCOUNT_CAP in a row). Before
|    it, the CPU of a login refused at the ceiling.
|
| Environment: FRONT_DOOR_ONLY (a comma list of the parts to run: person,native,steps,flood;
| default all), FRONT_DOOR_DB=pg (default SQLite; FRONT_DOOR_PG_DB, default adonis_rbac_front_door,
| recreated), NATIVE_RUNS (solves per level in 1., default 30), FLOOD_SECONDS (default 45),
| OWNER_DELAY_MS (the owner's first sign-in, default 20 s in: the attack reaches the ceiling first).
| The client is the benchmarks' (client.ts, http.ts: the tests' captcha client over node:http from
| a chosen source address), with the native solver in place of altcha-lib's.
*/
import { scryptSync } from 'node:crypto'
import { execFileSync, spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { createChallenge } from 'altcha-lib'
import type { Challenge } from 'altcha-lib/types'
import { deriveKey } from 'altcha-lib/algorithms/scrypt'
import { rightVerify, wrongCounter } from '../tests/helpers/captcha.js'
import { credential } from './client.js'
import {
  answerOf,
  ensurePgDatabase,
  openDb,
  pgConnection,
  type BenchDb,
  type DbConfig,
} from './db.js'
import { freePort, send, waitUntilUp } from './http.js'
import { type PowConfig, personWaits } from './person_chromium.js'
import { partChallenge } from '../app/captcha/pow_parts.js'
import { cpuMsOf, median, ownCpuMs as cpuMs, percentile, round2 as round } from './processes.js'

const ROOT = new URL('..', import.meta.url).pathname
const DB_FILE = 'tmp/bench-front-door.sqlite3'
const FLOOD_SECONDS = Number(process.env.FLOOD_SECONDS ?? 45)
/** The owner's first sign-in comes this late: the attack reaches the ceiling first. */
const OWNER_DELAY_MS = Number(process.env.OWNER_DELAY_MS ?? 20_000)
const ADMIN_PASSWORD = 'Bench-Front-Door-Passw0rd!'

/** The served proof of work (config/admin_auth.ts defaults; proof_of_work.ts's LEVEL_WORK). */
const POW: PowConfig = { cost: 2048, blockSize: 8, parts: 12, levelWork: [1, 2, 4, 16] }
const POW_ENV = {
  CAPTCHA_POW_COST: String(POW.cost),
  CAPTCHA_POW_BLOCK_SIZE: String(POW.blockSize),
  CAPTCHA_POW_PARTS: String(POW.parts),
}
const ONLY = (process.env.FRONT_DOOR_ONLY ?? 'person,native,steps,flood').split(',')

/** The fastest solver we have: every part's candidate keys derived natively, synchronously. */
function nativeSolve(challenge: Challenge) {
  const { salt, cost, memoryCost, parallelism, keyLength, keyPrefix } = challenge.parameters
  const saltBuffer = Buffer.from(salt, 'hex')
  const options = { N: cost, r: memoryCost!, p: parallelism ?? 1, maxmem: 256 * cost * memoryCost! }
  const counters: number[] = []
  for (let part = 0; part < Number(challenge.parameters.data?.parts); part++) {
    const { nonce } = partChallenge(challenge.parameters, part).parameters
    const password = Buffer.alloc(nonce.length / 2 + 4)
    Buffer.from(nonce, 'hex').copy(password)
    for (let counter = 0; ; counter++) {
      password.writeUInt32BE(counter, nonce.length / 2)
      const key = scryptSync(password, saltBuffer, keyLength, options).toString('hex')
      if (key.startsWith(keyPrefix)) {
        counters.push(counter)
        break
      }
    }
  }
  return { counters }
}

// ------------------------------------------------------------------ 1. the fastest client
async function nativeCost(runs: number) {
  // Per evaluation (deterministic), times the mean number of evaluations: the expected cost.
  const password = Buffer.alloc(20)
  const options = { N: POW.cost, r: POW.blockSize, p: 1, maxmem: 512 * POW.cost * POW.blockSize }
  const evalStart = cpuMs()
  for (let i = 0; i < 200; i++) {
    password.writeUInt32BE(i, 16)
    scryptSync(password, 'salt', 32, options)
  }
  const perEvaluation = (cpuMs() - evalStart) / 200
  // And whole level-0 solves (a sum of geometric parts: the sample mean is close to expected).
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const challenge = await createChallenge({
      algorithm: 'SCRYPT',
      cost: POW.cost,
      memoryCost: POW.blockSize,
      parallelism: 1,
      keyPrefix: '0',
      deriveKey,
      data: { parts: POW.parts },
      hmacSignatureSecret: 'bench',
    })
    const start = cpuMs()
    nativeSolve(challenge)
    times.push(cpuMs() - start)
  }
  return {
    perEvaluationMs: round(perEvaluation),
    expectedMsPerLevel: POW.levelWork.map((work) =>
      Math.round(perEvaluation * 16 * POW.parts * work)
    ),
    level0SampleMeanMs: Math.round(times.reduce((a, b) => a + b, 0) / times.length),
    level0SampleMedianMs: Math.round(median(times)),
    runs,
  }
}

// ------------------------------------------------------------------ the server process
type Server = { url: string; pid: number; db: BenchDb; stop: () => Promise<void> }

/** FRONT_DOOR_DB=pg runs the server on PostgreSQL (database FRONT_DOOR_PG_DB, default
 * adonis_rbac_front_door, recreated for each server). */
const ON_PG = process.env.FRONT_DOOR_DB === 'pg'
const dbConfig: DbConfig = ON_PG
  ? { db: 'pg', pg: pgConnection(process.env.FRONT_DOOR_PG_DB ?? 'adonis_rbac_front_door') }
  : { db: 'sqlite', sqliteFile: `${ROOT}${DB_FILE}` }

async function startServer(env: Record<string, string>): Promise<Server> {
  rmSync(`${ROOT}${DB_FILE}`, { force: true })
  if (dbConfig.db === 'pg') await ensurePgDatabase(dbConfig.pg, true)
  const base = {
    ...process.env,
    NODE_ENV: 'test',
    SQLITE_FILE: DB_FILE,
    DB_CONNECTION: dbConfig.db,
    ...(dbConfig.db === 'pg'
      ? {
          PG_HOST: dbConfig.pg.host,
          PG_PORT: String(dbConfig.pg.port),
          PG_USER: dbConfig.pg.user,
          PG_PASSWORD: dbConfig.pg.password,
          PG_DB_NAME: dbConfig.pg.database,
        }
      : {}),
    LIMITER_STORE: 'database',
    ADMIN_ACCOUNT: 'admin',
    ADMIN_PASSWORD,
    LOG_LEVEL: 'warn',
    ...env,
  }
  execFileSync(process.execPath, ['ace', 'migration:run', '--force'], { cwd: ROOT, env: base })
  execFileSync(process.execPath, ['ace', 'db:seed'], { cwd: ROOT, env: base })
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', '@poppinss/ts-exec', 'bin/server.ts'], {
    cwd: ROOT,
    env: { ...base, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}`
  await waitUntilUp(url, '/api/health/live')
  const db = openDb(dbConfig)
  return {
    url,
    pid: child.pid!,
    db,
    stop: async () => {
      child.kill()
      await db.end()
    },
  }
}

/** The whole client flow from address `from`, paying the proof of work with the native solver. */
const mint = (server: Server, from: string, options: { account?: string; device?: string } = {}) =>
  credential(server.url, (captchaId) => answerOf(server.db, captchaId), {
    ...options,
    from,
    solve: (pow) => ({ challenge: pow, solution: nativeSolve(pow) }),
  })

/** Server CPU per request over `runs` calls of `step`, and the client's CPU for the same calls. */
async function perRequest(server: Server, runs: number, step: (i: number) => Promise<unknown>) {
  const serverStart = cpuMsOf(server.pid)
  const clientStart = cpuMs()
  for (let i = 0; i < runs; i++) await step(i)
  return {
    serverCpuMs: round((cpuMsOf(server.pid) - serverStart) / runs),
    clientCpuMs: round((cpuMs() - clientStart) / runs),
  }
}

const results: Record<string, unknown> = {}

/** Makes `from` an address that is served `level` (0-2; difficulty.ts), as person_chromium.ts. */
async function primeLevel(server: Server, from: string, level: number) {
  if (level === 1) {
    for (let j = 0; j < 3; j++) await send(server.url, 'GET', '/api/auth/captcha', { from })
  }
  if (level === 2) {
    const pow = (await send(server.url, 'GET', '/api/auth/captcha', { from })).body.data.pow
    for (let j = 0; j < 3; j++) {
      await send(server.url, 'POST', '/api/auth/captcha', {
        from,
        body: { pow: { challenge: pow, solution: { counters: [j] } } },
      })
    }
  }
}

if (ONLY.includes('person')) {
  const runs = Number(process.env.PERSON_RUNS ?? 30)
  console.log(`0. the person: Chromium through the console, ${runs} logins per level`)
  const server = await startServer({ ...POW_ENV, LIMIT_CAPTCHA_PER_MINUTE: '100000' })
  try {
    results.person = await personWaits(server, POW, runs)
  } finally {
    await server.stop()
  }
}

if (ONLY.includes('native')) {
  console.log(`1. native solver (scryptSync), N=${POW.cost} r=${POW.blockSize}`)
  results.native = await nativeCost(Number(process.env.NATIVE_RUNS ?? 30))
  console.log(results.native)
}

if (ONLY.includes('steps')) {
  console.log(
    `2. server CPU per anonymous step (${ON_PG ? 'PostgreSQL' : 'SQLite'}, default proof of work)`
  )
  const server = await startServer({
    ...POW_ENV,
    LIMIT_CAPTCHA_PER_MINUTE: '100000',
    LIMIT_LOGIN_FAILURES_PER_IP: '100000',
    LIMIT_LOGIN_FAILURES_PER_ACCOUNT: '100000',
  })
  try {
    // Warm-up: JIT, connections, the dummy digest.
    for (let i = 0; i < 3; i++) await mint(server, '127.0.0.1')
    const steps: Record<string, unknown> = {}
    steps['GET /api/auth/captcha (challenge)'] = await perRequest(server, 200, () =>
      send(server.url, 'GET', '/api/auth/captcha')
    )
    const sliders: { id: string; from: string }[] = []
    for (const level of [0, 1, 2]) {
      // Fresh addresses, each served `level`; the client's CPU here is the native solver's.
      const pows: { from: string; pow: unknown }[] = []
      const solveStart = cpuMs()
      const runs = level === 2 ? 4 : 8
      for (let i = 0; i < runs; i++) {
        const from = `127.0.${60 + level}.${i + 1}`
        await primeLevel(server, from, level)
        const pow = (await send(server.url, 'GET', '/api/auth/captcha', { from })).body.data.pow
        pows.push({ from, pow: { challenge: pow, solution: nativeSolve(pow) } })
      }
      const clientPerCredential = round((cpuMs() - solveStart) / runs)
      const step = await perRequest(server, runs, async (i) => {
        const reply = await send(server.url, 'POST', '/api/auth/captcha', {
          body: { pow: pows[i].pow },
          from: pows[i].from,
        })
        if (reply.status !== 200) throw new Error(`slider: ${JSON.stringify(reply.body)}`)
        sliders.push({ id: reply.body.data.captchaId, from: pows[i].from })
      })
      steps[`POST /api/auth/captcha, solved, level ${level} (verify + draw)`] = {
        serverCpuMs: step.serverCpuMs,
        clientCpuMs: clientPerCredential,
      }
    }
    const garbage = (await send(server.url, 'GET', '/api/auth/captcha')).body.data.pow
    const wrongFirst = await wrongCounter(garbage, 0)
    const garbagePost = () =>
      send(server.url, 'POST', '/api/auth/captcha', {
        body: {
          pow: {
            challenge: garbage,
            solution: { counters: Array(POW.parts).fill(wrongFirst) },
          },
        },
      })
    // An address has 3 derivations of wrong solutions per 15 minutes, then 429 before any.
    steps['POST /api/auth/captcha, garbage solution (derived, 3 per address)'] = await perRequest(
      server,
      3,
      garbagePost
    )
    steps['POST /api/auth/captcha, garbage solution past the 3 (429)'] = await perRequest(
      server,
      50,
      () => garbagePost()
    )
    steps['POST /api/auth/captcha, foreign signature'] = await perRequest(server, 50, (i) =>
      send(server.url, 'POST', '/api/auth/captcha', {
        body: {
          pow: {
            challenge: { ...garbage, signature: '00'.repeat(32) },
            solution: { counters: Array(POW.parts).fill(i) },
          },
        },
      })
    )
    steps['POST /api/auth/captcha, malformed (422)'] = await perRequest(server, 50, () =>
      send(server.url, 'POST', '/api/auth/captcha', { body: { pow: { challenge: 'x' } } })
    )
    const tokens: { token: string; from: string }[] = []
    steps['POST /api/auth/captcha/verify (slider)'] = await perRequest(
      server,
      sliders.length,
      async (i) => {
        const { id, from } = sliders[i]
        const body = await rightVerify({ captchaId: id }, await answerOf(server.db, id))
        const reply = await send(server.url, 'POST', '/api/auth/captcha/verify', { body, from })
        if (reply.status !== 200) throw new Error(`verify: ${JSON.stringify(reply.body)}`)
        tokens.push({ token: reply.body.data.captchaToken, from })
      }
    )
    steps['POST /api/auth/login, wrong password (argon2id)'] = await perRequest(
      server,
      tokens.length,
      (i) =>
        send(server.url, 'POST', '/api/auth/login', {
          body: { account: 'admin', password: `Wrong-${i}`, captchaToken: tokens[i].token },
          from: tokens[i].from,
        })
    )
    steps['GET /api/health (reference)'] = await perRequest(server, 200, () =>
      send(server.url, 'GET', '/api/health/live')
    )
    results.steps = steps
    console.log(steps)
  } finally {
    await server.stop()
  }
}

if (ONLY.includes('flood')) {
  console.log(
    `3. flood: 100 addresses on one account for ${FLOOD_SECONDS} s (trivial proof of work)`
  )
  // The per-address limits are the defaults: the attacker has 100 addresses, not unlimited ones.
  const server = await startServer({ CAPTCHA_POW_COST: '16', CAPTCHA_POW_BLOCK_SIZE: '1' })
  try {
    const first = await mint(server, '127.0.0.1', { account: 'admin' })
    const login = await send(server.url, 'POST', '/api/auth/login', {
      body: { account: 'admin', password: ADMIN_PASSWORD, captchaToken: first.captchaToken },
    })
    let deviceToken = login.body.data.deviceToken as string

    // A locked account's refusal: fill the ceiling of an unknown name, then time its 429s.
    for (let i = 0; i < 100; i++) {
      const minted = await mint(server, '127.0.0.10', { account: 'ghost' })
      await send(server.url, 'POST', '/api/auth/login', {
        body: { account: 'ghost', password: 'Guess', captchaToken: minted.captchaToken },
        from: `127.0.4.${(i % 4) + 1}`,
      })
    }
    results.ceilingRefusal = await perRequest(server, 50, (i) =>
      send(server.url, 'POST', '/api/auth/login', {
        body: { account: 'ghost', password: 'Guess', captchaToken: `2.not-spent-${i}` },
        from: '127.0.4.9',
      })
    )
    console.log('POST /api/auth/login, account at the ceiling (429):', results.ceilingRefusal)

    const until = Date.now() + FLOOD_SECONDS * 1000
    const attackerStatuses: Record<string, number> = {}
    /** When each attacker's password was checked (401), and each owner's sign-in. */
    const hashedAt: number[] = []
    const ownerAt: number[] = []
    const attackers = Array.from({ length: 100 }, async (_, i) => {
      const from = `127.0.3.${i + 1}`
      while (Date.now() < until) {
        const minted = await mint(server, from, { account: 'admin' })
        const status = minted.captchaToken
          ? (
              await send(server.url, 'POST', '/api/auth/login', {
                body: {
                  account: 'admin',
                  password: `Guess-${Math.random()}`,
                  captchaToken: minted.captchaToken,
                },
                from,
              })
            ).status
          : minted.status
        attackerStatuses[status] = (attackerStatuses[status] ?? 0) + 1
        if (status === 401) hashedAt.push(Date.now())
        if (status === 429) await new Promise((resolve) => setTimeout(resolve, 50))
      }
    })
    const owner: number[] = []
    const ownerFlow: number[] = []
    const ownerStatuses: Record<string, number> = {}
    const ownerSteps: { challenge: number; slider: number; verify: number }[] = []
    const ownerLoop = (async () => {
      await new Promise((resolve) => setTimeout(resolve, OWNER_DELAY_MS))
      while (Date.now() < until) {
        const start = performance.now()
        const minted = await mint(server, '127.0.0.200', { account: 'admin', device: deviceToken })
        const reply = minted.captchaToken
          ? await send(server.url, 'POST', '/api/auth/login', {
              body: {
                account: 'admin',
                password: ADMIN_PASSWORD,
                captchaToken: minted.captchaToken,
                deviceToken,
              },
              from: '127.0.0.200',
            })
          : { status: minted.status, ms: 0 }
        ownerStatuses[reply.status] = (ownerStatuses[reply.status] ?? 0) + 1
        if (reply.status === 200) {
          // The token rotates at every sign-in: the next one presents its successor.
          deviceToken = (reply as { body: any }).body.data.deviceToken
          ownerAt.push(Date.now())
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
        const reply = await send(server.url, 'GET', '/api/articles?keyword=article', {
          from: '127.0.0.201',
        })
        bystanderStatuses[reply.status] = (bystanderStatuses[reply.status] ?? 0) + 1
        bystander.push(reply.ms)
        // Under the per-address search limit (60 per minute).
        await new Promise((resolve) => setTimeout(resolve, 1100))
      }
    })()
    await Promise.all([...attackers, ownerLoop, bystanderLoop])
    // The ceiling restarts at each owner sign-in (consecutive failures): the most passwords the
    // attackers had checked between two of them.
    const bounds = [0, ...ownerAt, Number.POSITIVE_INFINITY]
    const hashesBetweenOwnerSignIns = Math.max(
      ...bounds
        .slice(1)
        .map((end, i) => hashedAt.filter((at) => at > bounds[i] && at <= end).length)
    )
    results.flood = {
      attackerStatuses,
      attackerPasswordChecks: hashedAt.length,
      hashesBeforeOwnerSignedIn: hashedAt.filter((at) => at <= (ownerAt[0] ?? Infinity)).length,
      hashesBetweenOwnerSignIns,
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
    await server.stop()
  }
}
console.log(JSON.stringify(results, null, 2))
