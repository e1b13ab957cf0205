import type { HttpContext } from '@adonisjs/core/http'
import { clientOf } from '#core/client'
import { signAdminToken } from '#auth/jwt'
import { createSession } from '#auth/sessions'
import { setPassword } from '#services/admin_account_service'
import { changePasswordValidator } from '#validators/auth'
import { FieldError } from '#exceptions/api_exception'
import { withCurrentPassword } from '#auth/current_password'
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
   * PUT /api/auth/password: changes the caller's own password. The current-password check is
   * withCurrentPassword's (app/auth/current_password.ts: per session, one at a time per account).
   * tokenVersion is incremented in the same write and every session of the account
   * ends, so every older JWT (this one included) dies; the response carries a fresh token in a
   * new session.
   */
  async update(ctx: HttpContext) {
    const { request, response, logger, serialize } = ctx
    const { currentPassword, newPassword } = await request.validateUsing(changePasswordValidator)
    const user = await withCurrentPassword(
      ctx,
      currentPassword,
      'currentPassword',
      async (account) => {
        if (newPassword === currentPassword) {
          throw new FieldError('newPassword', 'newPasswordDifferFrom', 'different')
        }
        return setPassword(account, newPassword, 'newPassword', undefined, clientOf(ctx))
      }
    )
    logger.info({ event: 'password.changed', userId: user.id }, 'password changed')
    response.header('Cache-Control', 'no-store')
    const sessionId = await createSession(user.id, clientOf(ctx))
    return serialize(await signAdminToken(user.id, user.tokenVersion, sessionId))
  }
}
