/*
| The person at the door (bench/front_door.ts, part 0): Chromium driving the built console
| against a real server, one fresh page per login, each from its own loopback address (the
| console's /api forwarder binds it), so the server decides the level as for anyone:
|   level 0  a fresh address;
|   level 1  an address that asked for 3 challenges before;
|   level 2  an address with 3 failures (3 typos; a locked account's owner without a key pays
|            the same).
| The wait: the console asks for the challenge -> the slider is drawn (GET, the proof of work in
| the page's Web Workers, POST: verify + draw). Level 3 goes to a blocked address only, which gets
| no slider: no person waits for it.
|
| Also the cost of one evaluation (scrypt as served), as CPU time: the console's WASM (hash-wasm)
| in a Chromium worker against node:crypto, and a quiet-machine estimate of the solve from it (a
| simulation of the page's solver: parts of 16 evaluations on average, taken by the workers in
| turn, the last ones raced, each evaluation at its CPU cost, 2 workers on 2 free cores). On a
| shared machine the waits measure the load; the CPU costs and the estimate much less so.
*/
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { scryptSync } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright-core'
import { launchChromium } from '#tests/helpers/browser'
import { startConsoleServer } from '#tests/helpers/console_server'
import { solveMeasure } from '#tests/helpers/pow_in_chromium'
import { send } from './http.js'
import { descendantsCpuMs, ownCpuMs, percentile, round2 } from './processes.js'

const DIST = fileURLToPath(new URL('../console/dist', import.meta.url))
const HASH_WASM = fileURLToPath(
  new URL('../console/node_modules/hash-wasm/dist/scrypt.umd.min.js', import.meta.url)
)

export type PowConfig = { cost: number; blockSize: number; parts: number; levelWork: number[] }

/** CPU ms of one evaluation: the console's WASM scrypt in a Chromium worker, and node:crypto. */
export async function perEvaluation(browser: Browser, pow: PowConfig, evaluations = 200) {
  const worker = `${readFileSync(HASH_WASM, 'utf8')}
onmessage = async ({ data: { N, r, n } }) => {
  const password = new Uint8Array(20)
  const one = () => hashwasm.scrypt({ password, salt: 'salt', costFactor: N, blockSize: r,
    parallelism: 1, hashLength: 32, outputType: 'binary' })
  await one()
  postMessage('ready')
  await new Promise((resolve) => (onmessage = resolve))
  for (let i = 0; i < n; i++) { password[19] = i & 255; password[18] = i >> 8; await one() }
  postMessage('done')
}`
  const server = createServer((req, res) => {
    res.setHeader('content-type', req.url === '/w.js' ? 'text/javascript' : 'text/html')
    res.end(req.url === '/w.js' ? worker : '<html></html>')
  }).listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const page = await browser.newPage()
  try {
    await page.goto(`http://127.0.0.1:${(server.address() as { port: number }).port}/`)
    // Started (and its WASM compiled) first; timed from 'go' to 'done'.
    await page.evaluate(`new Promise((resolve) => {
      window.probe = new Worker('/w.js')
      window.probe.onmessage = () => resolve()
      window.probe.postMessage({ N: ${pow.cost}, r: ${pow.blockSize}, n: ${evaluations} })
    })`)
    const before = descendantsCpuMs()
    await page.evaluate(`new Promise((resolve) => {
      window.probe.onmessage = () => resolve()
      window.probe.postMessage('go')
    })`)
    const chromium = (descendantsCpuMs() - before) / evaluations
    const password = Buffer.alloc(20)
    const options = { N: pow.cost, r: pow.blockSize, p: 1, maxmem: 256 * pow.cost * pow.blockSize }
    const start = ownCpuMs()
    for (let i = 0; i < evaluations; i++) {
      password.writeUInt16BE(i, 18)
      scryptSync(password, 'salt', 32, options)
    }
    const native = (ownCpuMs() - start) / evaluations
    return {
      chromiumMs: round2(chromium),
      nativeMs: round2(native),
      ratio: round2(chromium / native),
    }
  } finally {
    await page.close()
    server.close()
  }
}

/**
 * The page's solver simulated in evaluations (pow.ts): `workers` workers take the parts in turn,
 * each evaluation a success with probability 1/16; once no part is left, idle workers race the
 * unfinished ones. Returns the wait in evaluations per worker, `trials` times.
 */
export function simulateSolver(parts: number, workers: number, trials = 20_000) {
  const results: number[] = []
  for (let trial = 0; trial < trials; trial++) {
    const solved = new Array<boolean>(parts).fill(false)
    const on = new Array<number>(workers)
    let next = 0
    let done = 0
    let steps = 0
    for (let w = 0; w < workers; w++) on[w] = next < parts ? next++ : -1
    while (done < parts) {
      steps++
      for (let w = 0; w < workers; w++) {
        const part = on[w]
        if (part < 0 || solved[part] || Math.random() >= 1 / 16) continue
        solved[part] = true
        done++
      }
      for (let w = 0; w < workers; w++) {
        if (on[w] >= 0 && !solved[on[w]]) continue
        if (next < parts) on[w] = next++
        else on[w] = solved.findIndex((isSolved, i) => !isSolved && on.includes(i))
      }
    }
    results.push(steps)
  }
  return results
}

type Server = { url: string }

/** The person's wait per level, `runs` logins each, through the console. */
export async function personWaits(server: Server, pow: PowConfig, runs: number) {
  const consoleServer = await startConsoleServer({
    distDir: DIST,
    apiUrl: server.url,
    sourceOf: (headers) => headers['x-bench-from'] as string | undefined,
  })
  const browser = await launchChromium()
  const levels: Record<string, unknown> = {}
  try {
    const evaluation = await perEvaluation(browser, pow)
    for (const level of [0, 1, 2]) {
      const waits: number[] = []
      const solves: number[] = []
      const perWorker: number[] = []
      let workers = 0
      for (let i = 0; i < runs; i++) {
        const from = `127.0.${30 + level}.${i + 1}`
        if (level === 1) {
          for (let j = 0; j < 3; j++) await send(server.url, 'GET', '/api/auth/captcha', { from })
        }
        if (level === 2) {
          const pow2 = (await send(server.url, 'GET', '/api/auth/captcha', { from })).body.data.pow
          for (let j = 0; j < 3; j++) {
            await send(server.url, 'POST', '/api/auth/captcha', {
              from,
              body: { pow: { challenge: pow2, solution: { counters: [j] } } },
            })
          }
        }
        const context = await browser.newContext({ extraHTTPHeaders: { 'x-bench-from': from } })
        const page = await context.newPage()
        await page.goto(`${consoleServer.url}/#/login`)
        const asked = page.waitForRequest((request) =>
          request.url().includes('/api/auth/captcha?account=')
        )
        const answered = page.waitForResponse((response) =>
          response.url().includes('/api/auth/captcha?account=')
        )
        await page.locator('input[name="account"]').fill('person')
        await asked
        const start = Date.now()
        const served = (await (await answered).json()).data.level
        if (served !== level) throw new Error(`level ${served} served, ${level} expected`)
        await page.waitForSelector('[data-testid="captcha"][data-pow="solved"]', {
          timeout: 120_000,
        })
        waits.push(Date.now() - start)
        const measure = await solveMeasure(page)
        solves.push(measure.duration)
        workers = measure.detail.concurrency
        perWorker.push((measure.duration * workers) / measure.detail.evaluations)
        await context.close()
      }
      const parts = pow.parts * pow.levelWork[level]
      const overhead = percentile(
        waits.map((wait, i) => wait - solves[i]),
        0.5
      )
      // Quiet machine: one evaluation at its measured CPU cost, the page's 2 workers on 2 cores;
      // the overhead (requests, workers' start, the draw) is what it is on the machine measured.
      const simulated = simulateSolver(parts, 2).map((steps) => steps * evaluation.chromiumMs)
      levels[`level ${level}`] = {
        parts,
        runs,
        workers,
        waitMs: {
          p50: Math.round(percentile(waits, 0.5)),
          p90: Math.round(percentile(waits, 0.9)),
          p99: Math.round(percentile(waits, 0.99)),
        },
        solveMsP50: Math.round(percentile(solves, 0.5)),
        overheadMsP50: Math.round(overhead),
        wallMsPerEvaluationPerWorkerP50: round2(percentile(perWorker, 0.5)),
        /** Add the overhead: a quiet machine's, or overheadMsP50 (measured here). */
        solveEstimateAtCpuCostMs: {
          p50: Math.round(percentile(simulated, 0.5)),
          p90: Math.round(percentile(simulated, 0.9)),
          p99: Math.round(percentile(simulated, 0.99)),
        },
      }
      console.log(`  level ${level}:`, levels[`level ${level}`])
    }
    return { perEvaluationCpu: evaluation, levels }
  } finally {
    await browser.close()
    await consoleServer.close()
  }
}
