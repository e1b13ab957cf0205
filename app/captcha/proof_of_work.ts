import { createChallenge, verifySolution } from 'altcha-lib'
import type { Challenge, Solution } from 'altcha-lib/types'
import { deriveKey } from 'altcha-lib/algorithms/scrypt'
import adminAuthConfig from '#config/admin_auth'
import { addressKey } from '#core/address_key'

/**
 * The captcha's proof of work: altcha-lib v2 over scrypt (memory-hard, so a native solver gains
 * little over the console's WASM; docs/front-door.md). Issuing costs one HMAC and stores nothing;
 * sliders are drawn only for a solved challenge. The signed `data` binds address key, level and
 * account; the nonce is the captcha id, so each solution draws one slider.
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
export type SolvedPow = { id: string; level: number; account: string | null; device: boolean }

/** `device`: issued to a valid device token of `account` (its slider is served to a blocked address). */
export async function powChallengeFor(
  ip: string,
  level: number,
  account: string | null,
  device = false
) {
  return createChallenge({
    algorithm: POW_ALGORITHM,
    ...powParameters(level),
    memoryCost: captcha.powBlockSize,
    parallelism: 1,
    keyLength: 32,
    deriveKey,
    expiresAt: new Date(Date.now() + captcha.challengeTtl * 1000),
    data: { address: addressKey(ip), level, account, device },
    hmacSignatureSecret: captcha.powKey,
  })
}

/**
 * The challenge's id, level and account when `payload` solves a challenge this server issued to
 * this address and it has not expired; 'wrong' when its key was derived and is not a solution;
 * null for the cheap refusals, which come first: a challenge for another address, not signed
 * here or expired never reaches the key derivation.
 */
export async function solvedPow(
  payload: PowPayload,
  ip: string
): Promise<SolvedPow | 'wrong' | null> {
  const { parameters } = payload.challenge
  const data = parameters.data ?? {}
  if (parameters.algorithm !== POW_ALGORITHM || data.address !== addressKey(ip)) return null
  const result = await verifySolution({
    challenge: payload.challenge,
    solution: payload.solution,
    deriveKey,
    hmacSignatureSecret: captcha.powKey,
  })
  if (!result.verified) return result.invalidSolution ? 'wrong' : null
  return {
    id: parameters.nonce,
    level: Number(data.level),
    account: typeof data.account === 'string' ? data.account : null,
    device: data.device === true,
  }
}
