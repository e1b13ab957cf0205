import type { Infer } from '@vinejs/vine/types'
import adminAuthConfig from '#config/admin_auth'
import { generateCaptchaImages } from '#captcha/generator'
import { drawGate } from '#core/cpu_gates'
import type { Client } from '#core/client'
import {
  armChallenge,
  claimChallenge,
  consumeChallenge,
  consumeCredential,
  isChallengeKnown,
  issueCredential,
} from '#captcha/challenge_store'
import { type TrackPoint, isHumanLikeTrack } from '#captcha/track'
import { type PowPayload, powChallengeFor, solvedPow } from '#captcha/proof_of_work'
import { challengeLevel } from '#captcha/difficulty'
import { powFailureKey } from '#captcha/captcha_limits'
import { findDevice } from '#auth/device_tokens'
import { assertAllowed, countFailure, giveBack, reserveAttempt, settleFailure } from '#auth/limits'
import { ipKey } from '#auth/login_limiter'
import { captchaFailed } from '#exceptions/api_exception'
import type { captchaVerifyValidator } from '#validators/auth'

const { captcha } = adminAuthConfig

/**
 * The captcha protocol (docs/front-door.md): a signed proof-of-work challenge, the slider drawn
 * for its solution, one verify per slider earning the one-time login credential.
 */

/**
 * A signed challenge; its cost is an HMAC and the level's lookups. A valid device token of
 * `account` gets level 0 (a superseded one is a theft: 401, device_tokens.ts).
 */
export async function challenge(
  client: Client,
  account: string | undefined,
  deviceToken: string | undefined
) {
  const trusted = Boolean(
    account && deviceToken && (await findDevice(deviceToken, account, { ...client, account }))
  )
  const level = await challengeLevel(client.ip, account ?? null, trusted)
  return {
    pow: await powChallengeFor(client.ip, level, account?.toLowerCase() ?? null, trusted),
    level,
    expiresIn: captcha.challengeTtl,
  }
}

/**
 * The slider for a solved proof of work. A replayed solution is refused before its key
 * derivation; a wrong one after it, and both count against the address. Each wrong solution costs
 * the server a derivation, so an address gets a few (reserved before it: a parallel burst cannot
 * exceed them), then 429 before any. Drawing waits in the draw gate (a device's challenge first).
 */
export async function show(ip: string, pow: PowPayload) {
  // A blocked address cannot log in, so it gets no slider either (an unsigned claim to be a
  // device's challenge fails the signature below).
  if (!pow.challenge.parameters.data?.device) await assertAllowed([ipKey(ip)])
  if (await isChallengeKnown(pow.challenge.parameters.nonce)) {
    await countFailure(ipKey(ip))
    throw captchaFailed()
  }
  const derivations = await reserveAttempt([powFailureKey(ip)])
  const result = await solvedPow(pow, ip)
  // Only a derived wrong solution keeps its reservation.
  if (result === 'wrong') await settleFailure(derivations)
  else await giveBack(derivations)
  const solved = typeof result === 'object' ? result : null
  if (!solved || !(await claimChallenge(solved.id, captcha.challengeTtl, ip, solved))) {
    await countFailure(ipKey(ip))
    throw captchaFailed()
  }
  // Claimed before the gate, so replays fail fast; a full gate (503) spends the solution.
  const images = await drawGate.run(solved.device ? 'trusted' : 'anonymous', () =>
    generateCaptchaImages()
  )
  await armChallenge(solved.id, images.answerX)
  return {
    captchaId: solved.id,
    backgroundImage: `data:${images.mime};base64,${images.background.toString('base64')}`,
    pieceImage: `data:${images.mime};base64,${images.piece.toString('base64')}`,
    pieceY: images.pieceY,
    width: images.width,
    height: images.height,
    pieceSize: images.pieceSize,
    expiresIn: captcha.challengeTtl,
  }
}

/** A malformed verify is still the slider's one attempt (its 422 follows; the slider is spent). */
export async function spendMalformed(captchaId: unknown) {
  if (typeof captchaId === 'string' && captchaId.length <= 128) await consumeChallenge(captchaId)
}

/**
 * One attempt per slider: it is spent before the comparison, right or wrong. A right drag, with a
 * human-like track no longer than the time since the draw, earns the one-time login credential,
 * bound to the address that fetched the challenge and carrying what its proof of work paid for.
 */
export async function verify(
  ip: string,
  { captchaId, x, track, input }: Infer<typeof captchaVerifyValidator>
) {
  const drawn = await consumeChallenge(captchaId)
  if (drawn === null || Math.abs(drawn.answerX - x) > captcha.tolerance) throw captchaFailed()
  const human = track
    ? isHumanLikeTrack(
        track as TrackPoint[],
        x,
        captcha.tolerance,
        input ?? 'pointer',
        Date.now() - drawn.drawnAt
      )
    : !captcha.requireTrack
  if (!human) throw captchaFailed()
  const captchaToken = await issueCredential(captcha.tokenTtl, drawn.clientIp ?? ip, drawn)
  return { captchaToken, expiresIn: captcha.tokenTtl }
}

/**
 * Spends a login credential (the first presentation wins, right or wrong): true when it was
 * known, unexpired, presented from the address it was issued to and bound to no account or to
 * this one (case-insensitive).
 */
export async function spendCredential(token: string | undefined, ip: string, account: string) {
  const paid = token ? await consumeCredential(token, ip) : null
  return paid !== null && (paid.account === null || paid.account === account.toLowerCase())
}
