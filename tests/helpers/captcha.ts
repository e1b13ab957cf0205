import { solveChallenge } from 'altcha-lib'
import type { Challenge } from 'altcha-lib/types'
import { deriveKey } from 'altcha-lib/algorithms/scrypt'
import type { ApiClient } from '@japa/api-client'
import type { TrackPoint } from '#captcha/track'

/**
 * The reference client side of the captcha, for tests and the benchmark: the proof of work solved
 * with altcha-lib's own solver over node:crypto's native scrypt (the browser runs the same
 * solver over a WASM scrypt), and a human-like drag.
 */
export async function solvePow(pow: Challenge) {
  const solution = await solveChallenge({ challenge: pow, deriveKey })
  if (!solution) throw new Error('proof of work not solved')
  return { challenge: pow, solution }
}

type CaptchaOptions = { account?: string; headers?: Record<string, string> }
const challengePath = (options: CaptchaOptions) =>
  `/api/auth/captcha${options.account ? `?account=${encodeURIComponent(options.account)}` : ''}`

/** The login page's first two steps through the test client: POST /api/auth/captcha's response. */
export async function newCaptcha(client: ApiClient, options: CaptchaOptions = {}) {
  const challenge = await client.get(challengePath(options)).headers(options.headers ?? {})
  challenge.assertStatus(200)
  return client
    .post('/api/auth/captcha')
    .headers(options.headers ?? {})
    .json({ pow: await solvePow(challenge.body().data.pow) })
}

/** The same over fetch, for app processes: the slider's `data`. */
export async function captchaAt(baseUrl: string, options: CaptchaOptions = {}) {
  const headers = { 'content-type': 'application/json', ...options.headers }
  const challenge = await fetch(`${baseUrl}${challengePath(options)}`, { headers })
  if (challenge.status !== 200) throw new Error(`GET captcha: ${challenge.status}`)
  const { pow } = ((await challenge.json()) as any).data
  const slider = await fetch(`${baseUrl}/api/auth/captcha`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ pow: await solvePow(pow) }),
  })
  if (slider.status !== 200) throw new Error(`POST captcha: ${slider.status}`)
  return ((await slider.json()) as any).data
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

/** The body of a right verify for a slider's `data`, answer `x` known. */
export async function rightVerify(data: { captchaId: string }, x: number) {
  return { captchaId: data.captchaId, x, track: humanTrack(x) }
}
