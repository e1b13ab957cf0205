import type { HttpContext } from '@adonisjs/core/http'
import adminAuthConfig from '#config/admin_auth'
import { generateCaptchaImages } from '#captcha/generator'
import { consumeChallenge, issueCredential, saveChallenge } from '#captcha/challenge_store'
import { isHumanLikeTrack } from '#captcha/track'
import { isPowSolvedFor, powChallengeFor } from '#captcha/proof_of_work'
import { consumeCaptchaAllowance } from '#auth/login_limiter'
import { captchaVerifyValidator } from '#validators/auth'
import { captchaFailed } from '#exceptions/api_exception'
import { contract } from '#openapi/contract'
import { named, s } from '#openapi/schema'

const { captcha } = adminAuthConfig

export default class CaptchaController {
  static contract = contract({
    show: {
      summary: 'A new slider challenge and its proof-of-work challenge',
      description:
        'The answer stays on the server. Drag `pieceImage` along row `pieceY` of ' +
        '`backgroundImage`; solve `pow` (ALTCHA, SHA-256) meanwhile. Rate limited per address.',
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
          pow: s.object({
            algorithm: s.string(),
            challenge: s.string(),
            maxnumber: s.integer(),
            salt: s.string(),
            signature: s.string(),
          }),
        })
      ),
      errors: [429],
    },
    verify: {
      summary: 'One attempt at a challenge; a right drag earns the one-time login credential',
      body: captchaVerifyValidator,
      data: named(
        'CaptchaCredential',
        s.object({ captchaToken: s.string(), expiresIn: s.integer({ description: 'seconds' }) })
      ),
      errors: [400, 429],
    },
  })

  /**
   * A new slider challenge. The answer x is stored server-side only; the response carries the
   * images, the row of the piece and the sizes.
   */
  async show({ request, response, serialize }: HttpContext) {
    await consumeCaptchaAllowance(request.ip(), response)
    const images = await generateCaptchaImages()
    const captchaId = await saveChallenge(images.answerX, captcha.challengeTtl, request.ip())
    response.header('Cache-Control', 'no-store')
    return serialize({
      captchaId,
      backgroundImage: `data:${images.mime};base64,${images.background.toString('base64')}`,
      pieceImage: `data:${images.mime};base64,${images.piece.toString('base64')}`,
      pieceY: images.pieceY,
      width: images.width,
      height: images.height,
      pieceSize: images.pieceSize,
      expiresIn: captcha.challengeTtl,
      pow: await powChallengeFor(captchaId),
    })
  }

  /**
   * One attempt per challenge: it is consumed before the comparison, right or wrong. A right drag
   * earns the one-time login credential.
   */
  async verify({ request, response, serialize }: HttpContext) {
    await consumeCaptchaAllowance(request.ip(), response)
    const { captchaId, x, track, pow } = await request.validateUsing(captchaVerifyValidator)
    // Consumed first: one attempt per challenge, whatever fails next.
    const challenge = await consumeChallenge(captchaId)
    if (challenge === null || Math.abs(challenge.answerX - x) > captcha.tolerance) {
      throw captchaFailed()
    }
    if (!pow || !(await isPowSolvedFor(pow, captchaId))) throw captchaFailed()
    if (
      track
        ? !isHumanLikeTrack(track as [number, number, number][], x, captcha.tolerance)
        : captcha.requireTrack
    ) {
      throw captchaFailed()
    }
    // Bound to the address that fetched the challenge.
    const captchaToken = await issueCredential(captcha.tokenTtl, challenge.clientIp ?? request.ip())
    response.header('Cache-Control', 'no-store')
    return serialize({ captchaToken, expiresIn: captcha.tokenTtl })
  }
}
