import type { HttpContext } from '@adonisjs/core/http'
import { login } from '#auth/login_service'
import { setRateLimitHeaders } from '#auth/login_limiter'
import { endSession } from '#auth/sessions'
import { loginValidator } from '#validators/auth'
import { contract } from '#openapi/contract'
import { tokenSchema } from '#auth/jwt'
import { s } from '#openapi/schema'

export default class SessionController {
  static contract = contract({
    store: {
      summary: 'Log in with account, password and the captcha credential',
      description:
        'Returns the admin JWT and a device token (send it back on later logins: a device ' +
        'that logged in before keeps its own failure allowance while the account is attacked).',
      body: loginValidator,
      data: s.object({ ...(tokenSchema.properties as object), deviceToken: s.string() }),
      errors: [400, 401, 429, 503],
    },
    destroy: { summary: 'Log out: end the session of this token', status: 204 },
  })

  /** POST /api/auth/login: account, password and the one-time captcha credential -> admin JWT. */
  async store({ request, response, logger, serialize }: HttpContext) {
    const input = await request.validateUsing(loginValidator)
    const { body, rateLimit } = await login(
      { ...input, ip: request.ip(), userAgent: request.header('user-agent') },
      logger
    )
    setRateLimitHeaders(response, rateLimit)
    response.header('Cache-Control', 'no-store')
    return serialize(body)
  }

  /** POST /api/auth/logout: ends the session of this token; its next request is a 401. */
  async destroy({ auth, response }: HttpContext) {
    await endSession(auth.use('jwt').getSessionIdOrFail(), 'logout')
    return response.noContent()
  }
}
