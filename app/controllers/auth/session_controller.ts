import type { HttpContext } from '@adonisjs/core/http'
import { login } from '#auth/login_service'
import { setRateLimitHeaders } from '#auth/login_limiter'
import { endSession } from '#auth/sessions'
import { loginValidator } from '#validators/auth'

export default class SessionController {
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
