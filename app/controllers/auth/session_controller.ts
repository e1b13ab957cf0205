import type { HttpContext } from '@adonisjs/core/http'
import { login } from '#auth/login_service'
import { setRateLimitHeaders } from '#auth/login_limiter'
import { loginValidator } from '#validators/auth'

export default class SessionController {
  /** POST /api/auth/login: account, password and the one-time captcha credential -> admin JWT. */
  async store({ request, response, logger, serialize }: HttpContext) {
    const input = await request.validateUsing(loginValidator)
    const { body, rateLimit } = await login({ ...input, ip: request.ip() }, logger)
    setRateLimitHeaders(response, rateLimit)
    response.header('Cache-Control', 'no-store')
    return serialize(body)
  }
}
