import type { HttpContext } from '@adonisjs/core/http'
import hash from '@adonisjs/core/services/hash'
import { hashGate } from '#services/cpu_gates'
import { signAdminToken } from '#auth/jwt'
import { createSession } from '#auth/sessions'
import { setPassword } from '#services/admin_account_service'
import { changePasswordValidator } from '#validators/auth'
import { FieldError, unauthorized } from '#exceptions/api_exception'
import {
  accountKey,
  assertAllowed,
  oneAtATime,
  reserveAttempt,
  sessionKey,
  settleFailure,
  setRateLimitHeaders,
  settleSuccess,
} from '#auth/login_limiter'
import { contract } from '#openapi/contract'
import { tokenSchema } from '#auth/jwt'

export default class PasswordController {
  static contract = contract({
    update: {
      summary: 'Change the own password; every session ends, a fresh token is returned',
      body: changePasswordValidator,
      data: tokenSchema,
      errors: [429],
    },
  })

  /**
   * PUT /api/auth/password: changes the caller's own password. The current-password check is a
   * password attempt counted per signed-in session (`sessionKey`, the JWT's session id: 429 while
   * that session is blocked), not against the account's anonymous login counter, so a burst of
   * wrong logins by anyone who knows the account name cannot stop its owner here. Checks run one
   * at a time per account, so a stolen token can neither guess at leisure nor flood the server
   * with argon2id. tokenVersion is incremented in the same write and every session of the account
   * ends, so every older JWT (this one included) dies; the response carries a fresh token in a
   * new session.
   */
  async update({ auth, request, response, logger, serialize }: HttpContext) {
    const guard = auth.use('jwt')
    const user = guard.getUserOrFail()
    const { currentPassword, newPassword } = await request.validateUsing(changePasswordValidator)
    const keys = [sessionKey(guard.getSessionIdOrFail())]
    await assertAllowed(keys)
    const authenticatedVersion = user.tokenVersion
    await oneAtATime(accountKey(user.account).key, async () => {
      // A change that ran while this one waited has revoked this request's token.
      await user.refresh()
      if (user.tokenVersion !== authenticatedVersion || !user.isEnabled) throw unauthorized()
      const reservation = await reserveAttempt(keys)
      const { remaining, resetIn } = reservation[0]
      setRateLimitHeaders(response, { limit: keys[0].requests, remaining, resetIn })
      const digest = user.password
      const matches = await hashGate.run('trusted', () => hash.verify(digest, currentPassword))
      if (!matches) {
        await settleFailure(reservation)
        throw new FieldError(
          'currentPassword',
          'The current password is incorrect',
          'currentPassword'
        )
      }
      await settleSuccess(reservation, keys[0])
      if (newPassword === currentPassword) {
        throw new FieldError(
          'newPassword',
          'The new password must differ from the current one',
          'different'
        )
      }
      await setPassword(user, newPassword, 'newPassword')
    })
    logger.info({ event: 'password.changed', userId: user.id }, 'password changed')
    response.header('Cache-Control', 'no-store')
    const sessionId = await createSession(user.id, {
      ip: request.ip(),
      userAgent: request.header('user-agent'),
    })
    return serialize(await signAdminToken(user.id, user.tokenVersion, sessionId))
  }
}
