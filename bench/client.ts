/*
| The login client of the benchmarks, over HTTP (bench/http.ts), built on the tests' captcha
| client (tests/helpers/captcha.ts: the proof of work solved with altcha-lib's own solver, a
| human-like drag). `solve` replaces the solver (front_door.ts: the fastest native one).
*/
import type { Challenge } from 'altcha-lib/types'
import { solveChallenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/scrypt'
import { rightVerify, solvePow } from '../tests/helpers/captcha.js'
import { send } from './http.js'

type Solution = { challenge: Challenge; solution: unknown }
export type CredentialOptions = {
  /** Loopback source address of every request. */
  from?: string
  /** `?account=`: a credential for that account only (and its level). */
  account?: string
  /** The owner's device token (X-Device-Token). */
  device?: string
  solve?: (pow: Challenge) => Solution | Promise<Solution>
}
export type Credential =
  | { status: 200; captchaToken: string; ms: { challenge: number; slider: number; verify: number } }
  | { status: number; captchaToken?: undefined; ms?: undefined }

/**
 * A proof of work in parts, or in one piece as builds before 8bbc98a ask it (`--baseline` against
 * an older build: one challenge, one counter).
 */
async function solveAny(pow: Challenge): Promise<Solution> {
  if (pow.parameters.data?.parts !== undefined) return solvePow(pow)
  const solution = await solveChallenge({ challenge: pow, deriveKey })
  if (!solution) throw new Error('proof of work not solved')
  return { challenge: pow, solution }
}

/**
 * The captcha's three steps: challenge, solved proof of work -> slider, right drag -> credential.
 * `answer` reads the slider's answer (from the database: the bench plays a pixel solver).
 */
export async function credential(
  base: string,
  answer: (captchaId: string) => Promise<number>,
  options: CredentialOptions = {}
): Promise<Credential> {
  const { from, solve = solveAny } = options
  const query = options.account ? `?account=${encodeURIComponent(options.account)}` : ''
  const headers: Record<string, string> = options.device ? { 'x-device-token': options.device } : {}
  const challenge = await send(base, 'GET', `/api/auth/captcha${query}`, { headers, from })
  if (challenge.status !== 200) return { status: challenge.status }
  const slider = await send(base, 'POST', '/api/auth/captcha', {
    body: { pow: await solve(challenge.body.data.pow) },
    from,
  })
  if (slider.status !== 200) return { status: slider.status }
  const x = await answer(slider.body.data.captchaId)
  const verify = await send(base, 'POST', '/api/auth/captcha/verify', {
    body: await rightVerify(slider.body.data, x),
    from,
  })
  if (verify.status !== 200) return { status: verify.status }
  return {
    status: 200,
    captchaToken: verify.body.data.captchaToken,
    ms: { challenge: challenge.ms, slider: slider.ms, verify: verify.ms },
  }
}

/** A whole login through the real flow; returns the JWT (throws when refused). */
export async function login(
  base: string,
  answer: (captchaId: string) => Promise<number>,
  account: string,
  password: string
) {
  const minted = await credential(base, answer)
  if (!minted.captchaToken) throw new Error(`captcha for ${account} failed: ${minted.status}`)
  const reply = await send(base, 'POST', '/api/auth/login', {
    body: { account, password, captchaToken: minted.captchaToken },
  })
  if (reply.status !== 200) {
    throw new Error(`login of ${account} failed: ${reply.status} ${JSON.stringify(reply.body)}`)
  }
  return reply.body.data.token as string
}
