import { createHash, randomBytes } from 'node:crypto'
import { solveChallenge } from 'altcha-lib'
import type { Challenge } from 'altcha-lib/types'
import { deriveKey } from 'altcha-lib/algorithms/scrypt'
import type { ApiClient } from '@japa/api-client'
import type { TrackPoint } from '#captcha/track'
import { partChallenge } from '#captcha/pow_parts'

/**
 * The reference client side of the captcha, for tests and the benchmark: each part of the proof
 * of work (app/captcha/proof_of_work.ts) solved with altcha-lib's own solver over node:crypto's
 * native scrypt (the browser runs the same solver over a WASM scrypt), and a human-like drag.
 */
export async function solvePow(pow: Challenge) {
  const counters: number[] = []
  for (let part = 0; part < Number(pow.parameters.data?.parts); part++) {
    const solution = await solveChallenge({
      challenge: partChallenge(pow.parameters, part),
      deriveKey,
      timeout: 0,
    })
    if (!solution) throw new Error('proof of work not solved')
    counters.push(solution.counter)
  }
  return { challenge: pow, solution: { counters } }
}

/**
 * A counter that does not solve part `part` of `pow` (its key derived and checked: one in 16
 * counters solves a part, so a neighbour of the solution is no reliable wrong answer).
 */
export async function wrongCounter(pow: Challenge, part: number) {
  const { parameters } = partChallenge(pow.parameters, part)
  const password = Buffer.alloc(parameters.nonce.length / 2 + 4)
  Buffer.from(parameters.nonce, 'hex').copy(password)
  for (let counter = 0; ; counter++) {
    password.writeUInt32BE(counter, parameters.nonce.length / 2)
    const { derivedKey } = await deriveKey(
      parameters,
      Buffer.from(parameters.salt, 'hex'),
      password
    )
    if (!Buffer.from(derivedKey).toString('hex').startsWith(parameters.keyPrefix)) return counter
  }
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

/**
 * What a pixel solver reads for a drawn slider: its answer. The slider's draw time moves 10 s back
 * at the same time (the person's drag took that long), so a track of any plausible length fits
 * the time since the draw (app/captcha/track.ts). `$1` is the challenge id.
 */
export const TAKE_ANSWER_SQL =
  'UPDATE captcha_challenges SET drawn_at = drawn_at - 10000 WHERE id = $1 RETURNING answer_x'

/** The body of a right verify for a slider's `data`, answer `x` known. */
export async function rightVerify(data: { captchaId: string }, x: number) {
  return { captchaId: data.captchaId, x, track: humanTrack(x) }
}

/**
 * A level-0 credential written straight into an app process's database (`query`: a pg client):
 * what the real flow gives a fresh address. An address with 3 failures is served level 2, whose
 * credentials pass an account's lock (app/captcha/difficulty.ts); tests of the lock itself use this.
 */
export async function mintCredential(
  client: { query: (sql: string, values: unknown[]) => Promise<unknown> },
  clientIp = '127.0.0.1'
) {
  const token = `0.${randomBytes(32).toString('base64url')}`
  await client.query(
    'INSERT INTO captcha_tokens (token_hash, expires_at, client_ip, level, account) VALUES ($1, $2, $3, 0, NULL)',
    [createHash('sha256').update(token).digest('hex'), Date.now() + 120_000, clientIp]
  )
  return token
}
