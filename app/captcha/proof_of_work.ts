import { createChallenge, verifySolution } from 'altcha-lib'
import type { Challenge, Solution } from 'altcha-lib/types'
import { deriveKey } from 'altcha-lib/algorithms/scrypt'
import adminAuthConfig from '#config/admin_auth'
import { addressKey } from '#services/address_key'

/**
 * The captcha's proof of work: an altcha-lib v2 challenge over scrypt (memory-hard; the console
 * solves it in Web Workers with a WASM scrypt, where a native solver is only ~1.5x faster;
 * docs/front-door.md). Issuing one costs an HMAC, nothing stored: the slider images are drawn only
 * for a solved challenge, so an anonymous caller never makes the server draw for free.
 *
 * The signed `data` binds the challenge to the address key that asked for it, its level (the
 * difficulty, app/captcha/difficulty.ts) and the account it was asked for, if any. Its nonce is
 * the captcha id: the challenge row's primary key makes each solution single use.
 */
const { captcha } = adminAuthConfig
export const POW_ALGORITHM = 'SCRYPT'
export const MAX_LEVEL = 3

/** Level L costs 4^L times level 0: odd levels quadruple N, levels 2-3 add a hex digit (x16). */
export function powParameters(level: number) {
  return {
    cost: captcha.powCost * (level % 2 === 1 ? 4 : 1),
    keyPrefix: level >= 2 ? '000' : '00',
  }
}

export type PowPayload = { challenge: Challenge; solution: Solution }
export type SolvedPow = { id: string; level: number; account: string | null }

export async function powChallengeFor(ip: string, level: number, account: string | null) {
  return createChallenge({
    algorithm: POW_ALGORITHM,
    ...powParameters(level),
    memoryCost: captcha.powBlockSize,
    parallelism: 1,
    keyLength: 32,
    deriveKey,
    expiresAt: new Date(Date.now() + captcha.challengeTtl * 1000),
    data: { address: addressKey(ip), level, account },
    hmacSignatureSecret: captcha.powKey,
  })
}

/**
 * The challenge's id, level and account when `payload` solves a challenge this server issued to
 * this address and it has not expired; null otherwise. Cheap refusals come first: a challenge for
 * another address or one not signed here never reaches the key derivation.
 */
export async function solvedPow(payload: PowPayload, ip: string): Promise<SolvedPow | null> {
  const { parameters } = payload.challenge
  const data = parameters.data ?? {}
  if (parameters.algorithm !== POW_ALGORITHM || data.address !== addressKey(ip)) return null
  const result = await verifySolution({
    challenge: payload.challenge,
    solution: payload.solution,
    deriveKey,
    hmacSignatureSecret: captcha.powKey,
  })
  if (!result.verified) return null
  return {
    id: parameters.nonce,
    level: Number(data.level),
    account: typeof data.account === 'string' ? data.account : null,
  }
}
