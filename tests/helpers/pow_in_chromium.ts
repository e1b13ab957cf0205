import { createChallenge, verifySolution } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/scrypt'
import type { Browser, Route } from 'playwright-core'

export type PowParameters = { cost: number; blockSize: number; keyPrefix: string }

/** The API's default proof of work at level 0 (config/admin_auth.ts; the suites use a tiny one). */
export const DEFAULT_POW: PowParameters = { cost: 1024, blockSize: 8, keyPrefix: '00' }

const SECRET = 'pow-in-chromium'
const PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='

const isCaptcha = (url: URL) => url.pathname === '/api/auth/captcha'

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]
}

/**
 * How long the console's login page takes to solve the proof of work, in Chromium: `runs` fresh
 * pages of the built console at `base`, each given a challenge of `parameters` (the two captcha
 * endpoints answered in the browser by page.route, as the API would: altcha-lib's createChallenge
 * and verifySolution over node:crypto's scrypt, every solution checked), timed by the page's own
 * `pow-solve` performance measure (challenge in hand -> solution, in its Web Workers).
 */
export async function measurePowInChromium(
  browser: Browser,
  base: string,
  runs: number,
  parameters: PowParameters = DEFAULT_POW
) {
  const result = {
    times: [] as number[],
    counters: [] as number[],
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
        keyPrefix: parameters.keyPrefix,
        deriveKey,
        expiresAt: new Date(Date.now() + 300_000),
        data: { address: 'chromium', level: 0, account: null },
        hmacSignatureSecret: SECRET,
      })
      await route.fulfill({ json: { data: { pow, level: 0, expiresIn: 300 } } })
    })
    const drawFor = async (route: Route) => {
      const { pow } = route.request().postDataJSON()
      const check = await verifySolution({ ...pow, deriveKey, hmacSignatureSecret: SECRET })
      if (!check.verified) return route.fulfill({ status: 400, json: { errors: [] } })
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
    // Runs in the page (a string: the test tsconfig has no DOM types).
    const measure: {
      duration: number
      detail: { counter: number; concurrency: number }
      isSecureContext: boolean
      subtle: boolean
    } = await page.evaluate(`(() => {
      const [entry] = performance.getEntriesByName('pow-solve')
      return {
        duration: entry.duration,
        detail: entry.detail,
        isSecureContext: window.isSecureContext,
        subtle: Boolean(globalThis.crypto && globalThis.crypto.subtle),
      }
    })()`)
    result.times.push(measure.duration)
    result.counters.push(measure.detail.counter)
    result.workers = measure.detail.concurrency
    result.isSecureContext = measure.isSecureContext
    result.subtle = measure.subtle
    await context.close()
  }
  return result
}

/** One line: median and p90 of the solve times, and one worker's time per scrypt evaluation. */
export function powSummary(
  result: Awaited<ReturnType<typeof measurePowInChromium>>,
  parameters: PowParameters = DEFAULT_POW
) {
  // The workers try interleaved counters: the one found is about how many were tried in all.
  const perHash = result.times.map((ms, i) => (ms * result.workers) / (result.counters[i] + 1))
  return (
    `scrypt N=${parameters.cost} r=${parameters.blockSize} prefix '${parameters.keyPrefix}', ` +
    `${result.times.length} challenges, ${result.workers} workers: median ` +
    `${Math.round(percentile(result.times, 0.5))} ms, p90 ${Math.round(percentile(result.times, 0.9))} ms ` +
    `(counters: median ${percentile(result.counters, 0.5)}, expected mean ` +
    `${16 ** parameters.keyPrefix.length}; one scrypt per worker ${percentile(perHash, 0.5).toFixed(1)} ms)`
  )
}
