/*
| The captcha's proof of work as the console solves it, in Chromium: median and p90 of the solve
| time (the page's `pow-solve` performance measure: challenge in hand -> solution, in Web Workers
| running altcha-lib's solver over hash-wasm's WASM scrypt).
|
|   cd console && npm ci && npm run build && cd ..
|   node --import @poppinss/ts-exec bench/pow_chromium.ts [runs]     # default 10
|
| Environment: POW_LEVEL (0-3, default 0: the API's levels, app/captcha/proof_of_work.ts: x1, x2,
| x4, x16 parts), POW_PARTS (parts at level 0, default 12), POW_COST (scrypt N, default 2048),
| POW_BLOCK_SIZE (r, default 8), POW_ORIGIN=secure serves the page as
| http://127.0.0.1 (a secure context) instead of http://admin.test (plain http and not localhost:
| no crypto.subtle, the case the console must handle).
|
| Self-contained (tests/helpers/pow_in_chromium.ts): the built console is served and its two
| captcha endpoints answered in the browser with real altcha-lib challenges, every solution
| verified; no database. For comparison, node:crypto's native scrypt solves as many challenges of
| the same parameters on one core of this process. The work is random (each part's counter is
| geometric, mean 16): use >= 10 runs and read the p90. The person's whole wait, against a real
| server, is bench/front_door.ts's first part.
*/
import { existsSync } from 'node:fs'
import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { createChallenge } from 'altcha-lib'
import { solvePow } from '#tests/helpers/captcha'
import { deriveKey } from 'altcha-lib/algorithms/scrypt'
import { launchChromium } from '#tests/helpers/browser'
import { startConsoleServer } from '#tests/helpers/console_server'
import { measurePowInChromium, percentile, powSummary } from '#tests/helpers/pow_in_chromium'

const runs = Number(process.argv[2] ?? 10)
const level = Number(process.env.POW_LEVEL ?? 0)
const parameters = {
  cost: Number(process.env.POW_COST ?? 2048),
  blockSize: Number(process.env.POW_BLOCK_SIZE ?? 8),
  parts: Number(process.env.POW_PARTS ?? 12) * [1, 2, 4, 16][level],
}
const DIST = fileURLToPath(new URL('../console/dist', import.meta.url))
if (!existsSync(`${DIST}/index.html`)) {
  throw new Error('console/dist is missing: run `cd console && npm ci && npm run build` first')
}

// The API is never reached: page.route answers the captcha endpoints.
const server = await startConsoleServer({ distDir: DIST, apiUrl: 'http://127.0.0.1:9' })
const browser = await launchChromium({ hostMap: ['admin.test'] })
const base = process.env.POW_ORIGIN === 'secure' ? server.url : server.urlAs('admin.test')
const load = loadavg()[0]
let result: Awaited<ReturnType<typeof measurePowInChromium>>
try {
  result = await measurePowInChromium(browser, base, runs, parameters)
} finally {
  await browser.close()
  await server.close()
}

const native: number[] = []
const nativePerHash: number[] = []
for (let i = 0; i < runs; i++) {
  const challenge = await createChallenge({
    algorithm: 'SCRYPT',
    cost: parameters.cost,
    memoryCost: parameters.blockSize,
    parallelism: 1,
    keyLength: 32,
    keyPrefix: '0',
    deriveKey,
    data: { parts: parameters.parts },
  })
  const start = performance.now()
  const { solution } = await solvePow(challenge)
  native.push(performance.now() - start)
  nativePerHash.push(native[i] / solution.counters.reduce((sum, counter) => sum + counter + 1, 0))
}

console.log(`proof of work, level ${level} (load average ${load.toFixed(1)} at the start)`)
console.log(
  `  chromium at ${base} (isSecureContext ${result.isSecureContext}, crypto.subtle ` +
    `${result.subtle ? 'present' : 'undefined'}; ${result.verified}/${runs} solutions verified)`
)
console.log(`  ${powSummary(result, parameters)}`)
console.log(
  `  node:crypto scrypt, one core: median ${Math.round(percentile(native, 0.5))} ms, p90 ` +
    `${Math.round(percentile(native, 0.9))} ms (one scrypt ${percentile(nativePerHash, 0.5).toFixed(1)} ms)`
)
