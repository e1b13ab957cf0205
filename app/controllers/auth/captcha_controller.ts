import type { HttpContext } from '@adonisjs/core/http'
import { clientOf } from '#core/client'
import * as captchaService from '#captcha/captcha_service'
import type { PowPayload } from '#captcha/proof_of_work'
import {
  captchaChallengeValidator,
  captchaCreateValidator,
  captchaVerifyValidator,
} from '#validators/auth'
import { contract } from '#openapi/contract'
import { named, s } from '#openapi/schema'

/** The captcha's three steps (the protocol: app/captcha/captcha_service.ts). */
export default class CaptchaController {
  static contract = contract({
    challenge: {
      summary: 'A proof-of-work challenge (altcha-lib v2, scrypt) that pays for one slider',
      description:
        'Nothing is stored and nothing drawn. The work is `data.parts` parts: part i is the altcha ' +
        'challenge whose nonce is `nonce` followed by i as 4 hex digits; its solution, a counter whose ' +
        'derived key starts with `keyPrefix`. `level` (0-3) is the difficulty (x1, x2, x4, x16 parts), raised ' +
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
                parts: s.integer({ description: 'independent parts, one counter each' }),
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

  /** GET /api/auth/captcha */
  async challenge(ctx: HttpContext) {
    const { request, response } = ctx
    const { account } = await request.validateUsing(captchaChallengeValidator, {
      data: request.qs(),
    })
    const deviceToken = request.header('x-device-token')
    const answer = await captchaService.challenge(clientOf(ctx), account, deviceToken)
    response.header('Cache-Control', 'no-store')
    return ctx.serialize(answer)
  }

  /** POST /api/auth/captcha */
  async show({ request, response, serialize }: HttpContext) {
    const { pow } = await request.validateUsing(captchaCreateValidator)
    const slider = await captchaService.show(request.ip(), pow as PowPayload)
    response.header('Cache-Control', 'no-store')
    return serialize(slider)
  }

  /** POST /api/auth/captcha/verify */
  async verify({ request, response, serialize }: HttpContext) {
    const input = await request.validateUsing(captchaVerifyValidator).catch(async (error) => {
      await captchaService.spendMalformed(request.input('captchaId'))
      throw error
    })
    const credential = await captchaService.verify(request.ip(), input)
    response.header('Cache-Control', 'no-store')
    return serialize(credential)
  }
}
