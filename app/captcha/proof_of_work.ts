import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1'
import adminAuthConfig from '#config/admin_auth'

/**
 * The proof of work of a captcha (altcha-lib: HMAC-signed SHA-256 challenges, verified without
 * state). Each challenge carries its captcha id and expiry in its signed salt, so a solution
 * only ever verifies for the captcha it was issued with; the captcha itself is single use.
 * The browser solves it (altcha-lib's solver in a Web Worker) while the person drags.
 */
const { captcha } = adminAuthConfig

export type PowChallenge = {
  algorithm: string
  challenge: string
  maxnumber: number
  salt: string
  signature: string
}
export type PowSolution = {
  algorithm: string
  challenge: string
  number: number
  salt: string
  signature: string
}

export async function powChallengeFor(captchaId: string): Promise<PowChallenge> {
  const challenge = await createChallenge({
    hmacKey: captcha.powKey,
    maxnumber: captcha.powMaxNumber,
    params: { captcha: captchaId },
    expires: new Date(Date.now() + captcha.challengeTtl * 1000),
  })
  return {
    algorithm: challenge.algorithm,
    challenge: challenge.challenge,
    maxnumber: challenge.maxnumber ?? captcha.powMaxNumber,
    salt: challenge.salt,
    signature: challenge.signature,
  }
}

/** True for a valid, unexpired solution of the challenge issued with `captchaId`. */
export async function isPowSolvedFor(solution: PowSolution, captchaId: string) {
  if (solution.algorithm !== 'SHA-256') return false
  if (!(await verifySolution(solution as any, captcha.powKey, true))) return false
  return extractParams(solution as any).captcha === captchaId
}
