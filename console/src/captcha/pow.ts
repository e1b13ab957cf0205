import type { Challenge, Solution } from 'altcha-lib/types'

/**
 * GET /api/auth/captcha `data.pow`: an altcha-lib v2 challenge (scrypt), signed by the server,
 * in `parameters.data.parts` parts (app/captcha/proof_of_work.ts).
 */
export type PowChallenge = Challenge & { signature: string }

/** Workers solving in parallel: one per core, at most 4 (each scrypt holds 128·N·r bytes). */
export const powConcurrency = () =>
  Math.min(4, Math.max(1, Math.floor(navigator.hardwareConcurrency || 1)))

/** The challenge expired before it was solved: the caller asks for a new one. */
export class PowExpired extends Error {}

/** Part i (app/captcha/pow_parts.ts): the challenge with its nonce followed by i, 4 hex digits. */
const partOf = ({ parameters }: Challenge, part: number): Challenge => ({
  parameters: { ...parameters, nonce: parameters.nonce + part.toString(16).padStart(4, '0') },
})

/** A raced part's second worker counts from here: its counters never meet the first's. */
const RACE_OFFSET = 2 ** 28

type Slot = { worker: Worker; part: number; start: number }

let solves = 0

/**
 * Solves the proof of work in Web Workers (pow.worker.ts: altcha-lib's solver over hash-wasm's
 * scrypt, no WebCrypto): each worker takes the next unsolved part; once none is left, idle
 * workers race the unfinished ones from other counters, so the cores stay busy to the end.
 * `onProgress` hears each solved part. Resolves with one counter per part, or null when `signal`
 * aborts it first; rejects with PowExpired when the challenge expires first (the workers give up
 * exactly then, not at altcha-lib's default 90 s). Each solve is timed as a performance measure
 * named `pow-solve` (its detail: the parameters, the parts, the evaluations, the workers), for
 * the browser tests and the benchmarks.
 */
export function solvePow(
  challenge: PowChallenge,
  signal: AbortSignal,
  onProgress: (solved: number, parts: number) => void = () => {}
): Promise<number[] | null> {
  const parts = Math.max(1, Number(challenge.parameters.data?.parts ?? 1))
  const expiresAt = (challenge.parameters.expiresAt ?? Infinity) * 1000
  const concurrency = Math.min(powConcurrency(), parts)
  const counters: (number | undefined)[] = new Array(parts)
  const racers = new Array<number>(parts).fill(0)
  const slots: Slot[] = []
  let next = 0
  let solved = 0
  let evaluations = 0
  const start = `pow-start-${++solves}`
  performance.mark(start)

  return new Promise<number[] | null>((resolve, reject) => {
    const finish = (outcome: () => void) => {
      signal.removeEventListener('abort', abort)
      for (const slot of slots) slot.worker.terminate()
      slots.length = 0
      performance.clearMarks(start)
      outcome()
    }
    const abort = () => finish(() => resolve(null))
    signal.addEventListener('abort', abort)
    if (signal.aborted) return abort()

    const assign = (slot: Slot) => {
      let part = next < parts ? next++ : -1
      if (part === -1) {
        // Every part is taken: race the unsolved one with the fewest workers.
        for (let i = 0; i < parts; i++) {
          if (counters[i] === undefined && (part === -1 || racers[i] < racers[part])) part = i
        }
        if (part === -1) return
      }
      slot.part = part
      slot.start = racers[part]++ * RACE_OFFSET
      slot.worker.postMessage({
        type: 'work',
        challenge: partOf(challenge, part),
        counterStart: slot.start,
        counterStep: 1,
        // Explicit: altcha-lib's default would give up after 90 s, before the challenge expires.
        timeout: Math.max(1, expiresAt - Date.now()),
      })
    }

    const spawn = () => {
      const slot: Slot = {
        worker: new Worker(new URL('./pow.worker.ts', import.meta.url), { type: 'module' }),
        part: -1,
        start: 0,
      }
      slot.worker.onmessage = ({ data }: MessageEvent<Solution | { error: string } | null>) =>
        onResult(slot, data)
      slot.worker.onerror = (event) => finish(() => reject(new Error(event.message)))
      slots.push(slot)
      assign(slot)
    }

    const onResult = (slot: Slot, data: Solution | { error: string } | null) => {
      if (!slots.includes(slot)) return
      if (data === null) return finish(() => reject(new PowExpired('expired')))
      if ('error' in data) return finish(() => reject(new Error(data.error)))
      const { part } = slot
      if (counters[part] === undefined) {
        counters[part] = data.counter
        evaluations += data.counter - slot.start + 1
        solved++
        onProgress(solved, parts)
      }
      if (solved === parts) {
        const { cost, memoryCost, parallelism, keyPrefix } = challenge.parameters
        performance.measure('pow-solve', {
          start,
          detail: { cost, memoryCost, parallelism, keyPrefix, parts, evaluations, concurrency },
        })
        return finish(() => resolve(counters as number[]))
      }
      // The other racers of this part stop (a worker only reads messages between evaluations
      // every 200 ms: a new one starts sooner).
      for (const other of [...slots]) {
        if (other !== slot && other.part === part) {
          other.worker.terminate()
          slots.splice(slots.indexOf(other), 1)
          spawn()
        }
      }
      assign(slot)
    }

    onProgress(0, parts)
    for (let i = 0; i < concurrency; i++) spawn()
  })
}
