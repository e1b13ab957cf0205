import { solveChallengeWorkers } from 'altcha-lib'
import type { Challenge, Solution } from 'altcha-lib/types'

/** GET /api/auth/captcha `data.pow`: an altcha-lib v2 challenge (scrypt), signed by the server. */
export type PowChallenge = Challenge & { signature: string }

/** Workers solving in parallel: one per core, at most 4 (each scrypt holds 128·N·r bytes). */
export const powConcurrency = () =>
  Math.min(4, Math.max(1, Math.floor(navigator.hardwareConcurrency || 1)))

let solves = 0

/**
 * Solves the proof of work in Web Workers (pow.worker.ts: altcha-lib's solver over hash-wasm's
 * scrypt, no WebCrypto). Resolves with the solution, or null when `signal` aborts it first.
 * Each solve is timed as a performance measure named `pow-solve` (its detail: the parameters,
 * the counter found, the workers), for the browser tests and bench/pow_chromium.ts.
 */
export async function solvePow(challenge: PowChallenge, signal: AbortSignal) {
  const controller = new AbortController()
  const abort = () => controller.abort()
  signal.addEventListener('abort', abort)
  const concurrency = powConcurrency()
  const start = `pow-start-${++solves}`
  performance.mark(start)
  try {
    const solution: Solution | null = await solveChallengeWorkers({
      challenge,
      concurrency,
      controller,
      createWorker: () =>
        new Worker(new URL('./pow.worker.ts', import.meta.url), { type: 'module' }),
    })
    if (solution && !signal.aborted) {
      const { cost, memoryCost, parallelism, keyPrefix } = challenge.parameters
      performance.measure('pow-solve', {
        start,
        detail: {
          cost,
          memoryCost,
          parallelism,
          keyPrefix,
          counter: solution.counter,
          concurrency,
        },
      })
    }
    return signal.aborted ? null : solution
  } finally {
    performance.clearMarks(start)
    signal.removeEventListener('abort', abort)
  }
}
