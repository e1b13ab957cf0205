import { solveChallenge } from 'altcha-lib/v1'
import type { TrackPoint } from '#captcha/track'

/**
 * The reference client side of the captcha, for tests and the benchmark: the proof of work solved
 * with altcha-lib's own solver (the browser uses the same library), and a human-like drag.
 */
export async function solvePow(pow: {
  algorithm: string
  challenge: string
  maxnumber: number
  salt: string
  signature: string
}) {
  const solution = await solveChallenge(pow.challenge, pow.salt, pow.algorithm, pow.maxnumber)
    .promise
  if (!solution) throw new Error('proof of work not solved')
  return {
    algorithm: pow.algorithm,
    challenge: pow.challenge,
    number: solution.number,
    salt: pow.salt,
    signature: pow.signature,
  }
}

/**
 * A drag to `x` as a person makes it: eased in and out (speed rises, then falls near the gap),
 * a wobbling y, uneven event intervals. Deterministic for a given seed.
 */
export function humanTrack(x: number, seed = 1): TrackPoint[] {
  let state = seed
  const random = () => (state = (state * 48271) % 2147483647) / 2147483647
  const points: TrackPoint[] = []
  const steps = 24
  let t = 0
  for (let i = 0; i <= steps; i++) {
    const progress = i / steps
    const eased = progress < 0.5 ? 2 * progress * progress : 1 - (-2 * progress + 2) ** 2 / 2
    points.push([Math.round(eased * x * 100) / 100, Math.round(random() * 3), Math.round(t)])
    t += 16 + random() * 14
  }
  points[points.length - 1][0] = x
  return points
}

/** The body of a right verify for a captcha response's `data`, answer `x` known. */
export async function rightVerify(data: { captchaId: string; pow: any }, x: number) {
  return { captchaId: data.captchaId, x, track: humanTrack(x), pow: await solvePow(data.pow) }
}
