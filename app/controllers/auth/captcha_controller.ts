import type { HttpContext } from '@adonisjs/core/http'
import adminAuthConfig from '#config/admin_auth'
import { generateCaptchaImages } from '#captcha/generator'
import { drawGate } from '#services/cpu_gates'
import {
  armChallenge,
  claimChallenge,
  consumeChallenge,
  isChallengeKnown,
  issueCredential,
} from '#captcha/challenge_store'
import { isHumanLikeTrack } from '#captcha/track'
import { powChallengeFor, solvedPow } from '#captcha/proof_of_work'
import { challengeLevel } from '#captcha/difficulty'
import { deviceOf } from '#auth/login_service'
import {
  assertAllowed,
  countFailure,
  giveBack,
  ipKey,
  powFailureKey,
  reserveAttempt,
  settleFailure,
} from '#auth/login_limiter'
import {
  captchaChallengeValidator,
  captchaCreateValidator,
  captchaVerifyValidator,
} from '#validators/auth'
import { captchaFailed } from '#exceptions/api_exception'
import { contract } from '#openapi/contract'
import { named, s } from '#openapi/schema'

const { captcha } = adminAuthConfig

export default class CaptchaController {
  static contract = contract({
    challenge: {
      summary: 'A proof-of-work challenge (altcha-lib v2, scrypt) that pays for one slider',
      description:
        'Nothing is stored and nothing drawn. `level` (0-3) is the difficulty: each level x4, raised ' +
        "by the address's challenge rate and failures and by the account's failed logins; a valid " +
        'device token of `account` (header `X-Device-Token`) gets level 0. Rate limited per address.',
      query: captchaChallengeValidator,
      data: named(
        'CaptchaPowChallenge',
        s.object({
          pow: s.object({
            parameters: s.object({
              algorithm: s.literal('SCRYPT'),
              nonce: s.string(),
              salt: s.string(),
              cost: s.integer({ description: 'scrypt N' }),
              keyLength: s.integer(),
              keyPrefix: s.string(),
              memoryCost: s.integer({ description: 'scrypt r' }),
              parallelism: s.integer({ description: 'scrypt p' }),
              expiresAt: s.integer({ description: 'unix seconds' }),
              data: s.object({
                address: s.string(),
                level: s.integer(),
                account: s.nullable(s.string()),
                device: s.boolean(),
              }),
            }),
            signature: s.string(),
          }),
          level: s.integer(),
          expiresIn: s.integer({ description: 'seconds' }),
        })
      ),
      errors: [429],
    },
    show: {
      summary: 'The slider, drawn for a solved proof of work',
      description:
        'The answer stays on the server. Drag `pieceImage` along row `pieceY` of ' +
        '`backgroundImage`. One slider per solution; a wrong, foreign or reused solution is a 400 ' +
        'and counts as a failure of the address.',
      body: captchaCreateValidator,
      data: named(
        'CaptchaChallenge',
        s.object({
          captchaId: s.string(),
          backgroundImage: s.string({ description: 'data: URL' }),
          pieceImage: s.string({ description: 'data: URL' }),
          pieceY: s.integer(),
          width: s.integer(),
          height: s.integer(),
          pieceSize: s.integer(),
          expiresIn: s.integer({ description: 'seconds' }),
        })
      ),
      errors: [400, 429],
    },
    verify: {
      summary: 'One attempt at a slider; a right drag earns the one-time login credential',
      body: captchaVerifyValidator,
      data: named(
        'CaptchaCredential',
        s.object({ captchaToken: s.string(), expiresIn: s.integer({ description: 'seconds' }) })
      ),
      errors: [400, 429],
    },
  })

  /** GET /api/auth/captcha: a signed challenge; its cost is an HMAC and the level's lookups. */
  async challenge({ request, response, serialize, logger }: HttpContext) {
    const ip = request.ip()
    const { account } = await request.validateUsing(captchaChallengeValidator, {
      data: request.qs(),
    })
    const deviceToken = request.header('x-device-token')
    const trusted = Boolean(
      account &&
      (await deviceOf(deviceToken, account, logger, {
        ip,
        userAgent: request.header('user-agent'),
      }))
    )
    const level = await challengeLevel(ip, account ?? null, trusted)
    response.header('Cache-Control', 'no-store')
    return serialize({
      pow: await powChallengeFor(ip, level, account?.toLowerCase() ?? null, trusted),
      level,
      expiresIn: captcha.challengeTtl,
    })
  }

  /**
   * POST /api/auth/captcha: the slider for a solved proof of work. A replayed solution is refused
   * before its key derivation; a wrong one after it, and both count against the address. Drawing
   * waits in the draw gate (a device's challenge first).
   */
  async show({ request, response, serialize }: HttpContext) {
    const ip = request.ip()
    const { pow } = await request.validateUsing(captchaCreateValidator)
    // A blocked address cannot log in, so it gets no slider either (an unsigned claim to be a
    // device's challenge fails the signature below).
    if (!pow.challenge.parameters.data?.device) await assertAllowed([ipKey(ip)])
    if (await isChallengeKnown(pow.challenge.parameters.nonce)) {
      await countFailure(ipKey(ip))
      throw captchaFailed()
    }
    // Each wrong solution costs the server a key derivation: an address gets a few (reserved
    // before the derivation, so a parallel burst cannot exceed them), then 429 before any. Only
    // a derived wrong solution keeps its reservation.
    const derivations = await reserveAttempt([powFailureKey(ip)])
    const result = await solvedPow(pow as any, ip)
    const solved = typeof result === 'object' ? result : null
    if (result === 'wrong') await settleFailure(derivations)
    else await giveBack(derivations)
    if (!solved || !(await claimChallenge(solved.id, captcha.challengeTtl, ip, solved))) {
      await countFailure(ipKey(ip))
      throw captchaFailed()
    }
    // Claimed before the gate, so replays fail fast; a full gate (503) spends the solution.
    const images = await drawGate.run(solved.device ? 'trusted' : 'anonymous', () =>
      generateCaptchaImages()
    )
    await armChallenge(solved.id, images.answerX)
    response.header('Cache-Control', 'no-store')
    return serialize({
      captchaId: solved.id,
      backgroundImage: `data:${images.mime};base64,${images.background.toString('base64')}`,
      pieceImage: `data:${images.mime};base64,${images.piece.toString('base64')}`,
      pieceY: images.pieceY,
      width: images.width,
      height: images.height,
      pieceSize: images.pieceSize,
      expiresIn: captcha.challengeTtl,
    })
  }

  /**
   * One attempt per slider: it is spent before the comparison, right or wrong. A right drag earns
   * the one-time login credential, carrying the level and account its proof of work paid for.
   */
  async verify({ request, response, serialize }: HttpContext) {
    const { captchaId, x, track, input } = await request
      .validateUsing(captchaVerifyValidator)
      .catch(async (error) => {
        // A malformed attempt is still the slider's one attempt (a 422, and it is spent).
        const id = request.input('captchaId')
        if (typeof id === 'string' && id.length <= 128) await consumeChallenge(id)
        throw error
      })
    // Spent first: one attempt per slider, whatever fails next.
    const challenge = await consumeChallenge(captchaId)
    if (challenge === null || Math.abs(challenge.answerX - x) > captcha.tolerance) {
      throw captchaFailed()
    }
    if (
      track
        ? !isHumanLikeTrack(
            track as [number, number, number][],
            x,
            captcha.tolerance,
            input ?? 'pointer',
            Date.now() - challenge.drawnAt
          )
        : captcha.requireTrack
    ) {
      throw captchaFailed()
    }
    // Bound to the address that fetched the challenge.
    const captchaToken = await issueCredential(
      captcha.tokenTtl,
      challenge.clientIp ?? request.ip(),
      challenge
    )
    response.header('Cache-Control', 'no-store')
    return serialize({ captchaToken, expiresIn: captcha.tokenTtl })
  }
}
