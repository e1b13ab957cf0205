import { createHmac, timingSafeEqual } from 'node:crypto'
import { createChallenge } from 'altcha-lib'
import type { Challenge } from 'altcha-lib/types'
import { deriveKey } from 'altcha-lib/algorithms/scrypt'
import adminAuthConfig from '#config/admin_auth'
import { addressKey } from '#core/address_key'
import { partChallenge } from '#captcha/pow_parts'

/**
 * The captcha's proof of work: one altcha-lib v2 challenge over scrypt (memory-hard, so a native
 * solver gains little over the console's WASM; docs/front-door.md), split into `data.parts`
 * independent parts. Part i is the altcha challenge whose nonce is the challenge's nonce followed
 * by i (4 hex digits, pow_parts.ts); its solution is a counter whose derived key starts
 * with `keyPrefix` (one hex digit: 16 evaluations on average). The sum of k such searches spreads
 * far less than one search of the same mean (a person's p99 stays near the mean), and the server
 * verifies k evaluations against the caller's 16k. Issuing costs one HMAC and stores nothing; the
 * signed `data` binds address key, level, account and parts; the nonce is the captcha id.
 */
const { captcha } = adminAuthConfig
export const POW_ALGORITHM = 'SCRYPT'
export const MAX_LEVEL = 3
/** One hex digit: 16 evaluations per part on average. */
export const PART_PREFIX = '0'
export const EVALUATIONS_PER_PART = 16 ** PART_PREFIX.length
/**
 * The work of each level against level 0. Persons meet levels 0-2 (difficulty.ts): their wait
 * stays within a few seconds; level 3 is served only to a blocked address, which draws no slider.
 */
export const LEVEL_WORK = [1, 2, 4, 16]

export function powParameters(level: number) {
  return {
    cost: captcha.powCost,
    keyPrefix: PART_PREFIX,
    parts: captcha.powParts * LEVEL_WORK[Math.min(MAX_LEVEL, Math.max(0, level))],
  }
}

export type PowPayload = { challenge: Challenge; solution: { counters: number[] } }
export type SolvedPow = { id: string; level: number; account: string | null; device: boolean }

/** `device`: issued to a valid device token of `account` (its slider is served to a blocked address). */
export async function powChallengeFor(
  ip: string,
  level: number,
  account: string | null,
  device = false
) {
  const { parts, ...parameters } = powParameters(level)
  return createChallenge({
    algorithm: POW_ALGORITHM,
    ...parameters,
    memoryCost: captcha.powBlockSize,
    parallelism: 1,
    keyLength: 32,
    deriveKey,
    expiresAt: new Date(Date.now() + captcha.challengeTtl * 1000),
    data: { address: addressKey(ip), level, account, device, parts },
    hmacSignatureSecret: captcha.powKey,
  })
}

/** altcha-lib's signature: HMAC-SHA-256 of the parameters as JSON, keys sorted at every depth. */
const sorted = (value: unknown): unknown =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(
        Object.keys(value)
          .sort()
          .flatMap((key) => {
            const entry = (value as Record<string, unknown>)[key]
            return entry === undefined ? [] : [[key, sorted(entry)]]
          })
      )
    : value

function isSigned({ parameters, signature }: Challenge) {
  if (typeof signature !== 'string') return false
  const expected = createHmac('sha256', captcha.powKey)
    .update(JSON.stringify(sorted(parameters)))
    .digest()
  const given = Buffer.from(signature, 'hex')
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/**
 * The challenge's id, level and account when `payload` solves a challenge this server issued to
 * this address and it has not expired; 'wrong' when a part's key was derived and is not a
 * solution; null for the cheap refusals, which come first: another address, not signed here,
 * expired, or not one counter per part never reach a key derivation. The parts are derived in
 * order and the first wrong one ends it: at most `parts` evaluations, 1/16 of the caller's work.
 */
export async function solvedPow(
  payload: PowPayload,
  ip: string
): Promise<SolvedPow | 'wrong' | null> {
  const { parameters } = payload.challenge
  const data = parameters.data ?? {}
  const counters = payload.solution.counters
  if (parameters.algorithm !== POW_ALGORITHM || data.address !== addressKey(ip)) return null
  if (!parameters.expiresAt || parameters.expiresAt * 1000 < Date.now()) return null
  if (!isSigned(payload.challenge) || counters.length !== data.parts) return null
  const salt = Buffer.from(parameters.salt, 'hex')
  for (const [part, counter] of counters.entries()) {
    // altcha-lib's password: the part's nonce, then the counter (uint32, big-endian).
    const nonce = Buffer.from(partChallenge(parameters, part).parameters.nonce, 'hex')
    const password = Buffer.alloc(nonce.length + 4)
    nonce.copy(password)
    password.writeUInt32BE(counter, nonce.length)
    const { derivedKey } = await deriveKey(parameters, salt, password)
    if (!Buffer.from(derivedKey).toString('hex').startsWith(parameters.keyPrefix)) return 'wrong'
  }
  return {
    id: parameters.nonce,
    level: Number(data.level),
    account: typeof data.account === 'string' ? data.account : null,
    device: data.device === true,
  }
}
