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
  const derivedKey = await scrypt({
    password,
    salt,
    costFactor: parameters.cost,
    blockSize: parameters.memoryCost ?? 8,
    parallelism: parameters.parallelism ?? 1,
    hashLength: parameters.keyLength,
    outputType: 'binary',
  })
  return { derivedKey }
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
