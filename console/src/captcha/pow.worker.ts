/// <reference lib="webworker" />
import { solveChallenge } from 'altcha-lib'
import type { Challenge, ChallengeParameters } from 'altcha-lib/types'
import { scrypt } from 'hash-wasm'

/**
 * One solver of the captcha's proof of work (an altcha-lib v2 challenge over scrypt), one part at
 * a time, run by pow.ts in several workers, each on its own part or counters. The key
 * derivation is hash-wasm's scrypt (WebAssembly): nothing here needs WebCrypto, which browsers
 * leave out of plain-http pages (crypto.subtle is undefined there, localhost aside).
 * The messages are those of altcha-lib's own workers (altcha-lib/workers/shared): a solution,
 * null when `timeout` (the challenge's expiry) or an abort came first, or an error.
 */
async function deriveKey(parameters: ChallengeParameters, salt: Uint8Array, password: Uint8Array) {
  if (parameters.algorithm !== 'SCRYPT') {
    throw new Error(`Unsupported algorithm: ${parameters.algorithm}`)
  }
  const derivedKey = await withWasmMemory(() =>
    scrypt({
      password,
      salt,
      costFactor: parameters.cost,
      blockSize: parameters.memoryCost ?? 8,
      parallelism: parameters.parallelism ?? 1,
      hashLength: parameters.keyLength,
      outputType: 'binary',
    })
  )
  return { derivedKey }
}

/**
 * hash-wasm's scrypt instantiates two WebAssembly modules per call, each with a memory whose
 * address space stays reserved until garbage collection, and V8 caps that space per process, for
 * the page and all its workers together. Quick evaluations in several workers can find it full for
 * a moment: a RangeError ("Out of memory: Cannot allocate Wasm memory"), which used to end the
 * captcha in an error. Measured in Debian's Chromium at the suites' tiny cost (N = 16), calls in a
 * loop: 1 in 4,000-8,000 failed with two workers, 1 in 1,500 with four; retried after a pause,
 * every call of four workers x 10 s passed by its third try. After about 6 s the error goes on.
 */
const PAUSES_MS = [50, 100, 200, 400, 800, 1600, 3200]

async function withWasmMemory<T>(work: () => Promise<T>): Promise<T> {
  for (const pause of PAUSES_MS) {
    try {
      return await work()
    } catch (error) {
      if (!(error instanceof RangeError && /memory/i.test(error.message))) throw error
      await new Promise((resolve) => setTimeout(resolve, pause))
    }
  }
  return work()
}

type Work = {
  type: 'work' | 'abort'
  challenge: Challenge
  counterMode?: 'uint32' | 'string'
  counterStart?: number
  counterStep?: number
  timeout?: number
}

let controller: AbortController | undefined

self.onmessage = async ({ data }: MessageEvent<Work>) => {
  if (data.type === 'abort') {
    controller?.abort()
    return
  }
  if (data.type !== 'work') return
  controller = new AbortController()
  try {
    const solution = await solveChallenge({
      challenge: data.challenge,
      controller,
      counterMode: data.counterMode,
      counterStart: data.counterStart,
      counterStep: data.counterStep,
      deriveKey,
      timeout: data.timeout,
    })
    self.postMessage(solution)
  } catch (error) {
    self.postMessage({ error: error instanceof Error ? error.message : String(error) })
  }
}
