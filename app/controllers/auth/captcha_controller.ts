import type { HttpContext } from '@adonisjs/core/http'
import adminAuthConfig from '#config/admin_auth'
import { generateCaptchaImages } from '#captcha/generator'
import { consumeChallenge, issueCredential, saveChallenge } from '#captcha/challenge_store'
import { isPlausibleTrack } from '#captcha/track'
import { consumeCaptchaAllowance } from '#auth/login_limiter'
import { captchaVerifyValidator } from '#validators/auth'
import { captchaFailed } from '#exceptions/api_exception'

const { captcha } = adminAuthConfig

export default class CaptchaController {
  /**
   * A new slider challenge. The answer x is stored server-side only; the response carries the
   * images, the row of the piece and the sizes.
   */
  async show({ request, response, serialize }: HttpContext) {
    await consumeCaptchaAllowance(request.ip(), response)
    const images = await generateCaptchaImages()
    const captchaId = await saveChallenge(images.answerX, captcha.challengeTtl)
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
    })
  }

  /**
   * One attempt per challenge: it is consumed before the comparison, right or wrong. A right drag
   * earns the one-time login credential.
   */
  async verify({ request, response, serialize }: HttpContext) {
    await consumeCaptchaAllowance(request.ip(), response)
    const { captchaId, x, track } = await request.validateUsing(captchaVerifyValidator)
    const answer = await consumeChallenge(captchaId)
    if (answer === null || Math.abs(answer - x) > captcha.tolerance) throw captchaFailed()
    if (
      track
        ? !isPlausibleTrack(track as [number, number, number][], x, captcha.tolerance)
        : captcha.requireTrack
    ) {
      throw captchaFailed()
    }
    const captchaToken = await issueCredential(captcha.tokenTtl)
    response.header('Cache-Control', 'no-store')
    return serialize({ captchaToken, expiresIn: captcha.tokenTtl })
  }
}
