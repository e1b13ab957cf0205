import { createChallenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/scrypt'
import type { Challenge } from 'altcha-lib/types'
import type { Browser, Route } from 'playwright-core'
import { partChallenge } from '#captcha/pow_parts'

/** scrypt N and r, and the parts of one hex digit each (app/captcha/proof_of_work.ts). */
export type PowParameters = { cost: number; blockSize: number; parts: number }

/** The API's default proof of work at level 0 (config/admin_auth.ts; the suites use a tiny one). */
export const DEFAULT_POW: PowParameters = { cost: 2048, blockSize: 8, parts: 12 }

const SECRET = 'pow-in-chromium'
const PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='

const isCaptcha = (url: URL) => url.pathname === '/api/auth/captcha'

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]
}

/** Every part's counter checked as the API checks it (one derivation each). */
async function solves(pow: Challenge, counters: number[]) {
  if (counters.length !== Number(pow.parameters.data?.parts)) return false
  for (const [part, counter] of counters.entries()) {
    const { parameters } = partChallenge(pow.parameters, part)
    const password = Buffer.alloc(parameters.nonce.length / 2 + 4)
    Buffer.from(parameters.nonce, 'hex').copy(password)
    password.writeUInt32BE(counter, parameters.nonce.length / 2)
    const { derivedKey } = await deriveKey(
      parameters,
      Buffer.from(parameters.salt, 'hex'),
      password
    )
    if (!Buffer.from(derivedKey).toString('hex').startsWith(parameters.keyPrefix)) return false
  }
  return true
}

/**
 * How long the console's login page takes to solve the proof of work, in Chromium: `runs` fresh
 * pages of the built console at `base`, each given a challenge of `parameters` (the two captcha
 * endpoints answered in the browser by page.route, as the API would: altcha-lib's createChallenge
 * over node:crypto's scrypt, every part's solution checked), timed by the page's own `pow-solve`
 * performance measure (challenge in hand -> every part solved, in its Web Workers).
 */
export async function measurePowInChromium(
  browser: Browser,
  base: string,
  runs: number,
  parameters: PowParameters = DEFAULT_POW
) {
  const result = {
    times: [] as number[],
    evaluations: [] as number[],
    workers: 0,
    isSecureContext: true,
    subtle: true,
    verified: 0,
  }
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.route(isCaptcha, async (route) => {
      if (route.request().method() === 'POST') return drawFor(route)
      const pow = await createChallenge({
        algorithm: 'SCRYPT',
        cost: parameters.cost,
        memoryCost: parameters.blockSize,
        parallelism: 1,
        keyLength: 32,
        keyPrefix: '0',
        deriveKey,
        expiresAt: new Date(Date.now() + 300_000),
        data: { address: 'chromium', level: 0, account: null, parts: parameters.parts },
        hmacSignatureSecret: SECRET,
      })
      await route.fulfill({ json: { data: { pow, level: 0, expiresIn: 300 } } })
    })
    const drawFor = async (route: Route) => {
      const { pow } = route.request().postDataJSON()
      if (!(await solves(pow.challenge, pow.solution.counters))) {
        return route.fulfill({ status: 400, json: { errors: [] } })
      }
      result.verified++
      await route.fulfill({
        json: {
          data: {
            captchaId: pow.challenge.parameters.nonce,
            backgroundImage: PIXEL,
            pieceImage: PIXEL,
            pieceY: 40,
            width: 320,
            height: 160,
            pieceSize: 50,
            expiresIn: 300,
          },
        },
      })
    }
    await page.goto(`${base}/#/login`)
    await page.locator('input[name="account"]').fill(`pow${i}`)
    await page.waitForSelector('[data-testid="captcha"][data-pow="solved"]', { timeout: 180_000 })
    const measure = await solveMeasure(page)
    result.times.push(measure.duration)
    result.evaluations.push(measure.detail.evaluations)
    result.workers = measure.detail.concurrency
    result.isSecureContext = measure.isSecureContext
    result.subtle = measure.subtle
    await context.close()
  }
  return result
}

/** The page's last `pow-solve` measure, and whether it is a secure context. */
export async function solveMeasure(page: import('playwright-core').Page): Promise<{
  duration: number
  detail: { evaluations: number; concurrency: number; parts: number }
  isSecureContext: boolean
  subtle: boolean
}> {
  // Runs in the page (a string: the test tsconfig has no DOM types).
  return page.evaluate(`(() => {
    const entries = performance.getEntriesByName('pow-solve')
    const entry = entries[entries.length - 1]
    return {
      duration: entry.duration,
      detail: entry.detail,
      isSecureContext: window.isSecureContext,
      subtle: Boolean(globalThis.crypto && globalThis.crypto.subtle),
    }
  })()`)
}

/** One line: median and p90 of the solve times, and one worker's time per scrypt evaluation. */
export function powSummary(
  result: Awaited<ReturnType<typeof measurePowInChromium>>,
  parameters: PowParameters = DEFAULT_POW
) {
  const perHash = result.times.map((ms, i) => (ms * result.workers) / result.evaluations[i])
  return (
    `scrypt N=${parameters.cost} r=${parameters.blockSize}, ${parameters.parts} parts of prefix '0', ` +
    `${result.times.length} challenges, ${result.workers} workers: median ` +
    `${Math.round(percentile(result.times, 0.5))} ms, p90 ${Math.round(percentile(result.times, 0.9))} ms ` +
    `(evaluations: median ${percentile(result.evaluations, 0.5)}, expected mean ` +
    `${16 * parameters.parts}; one scrypt per worker ${percentile(perHash, 0.5).toFixed(1)} ms)`
  )
}
