import type { HttpContext } from '@adonisjs/core/http'
import hash from '@adonisjs/core/services/hash'
import { signAdminToken } from '#auth/jwt'
import { setPassword } from '#services/admin_account_service'
import { changePasswordValidator } from '#validators/auth'
import { FieldError } from '#exceptions/api_exception'

export default class PasswordController {
  /**
   * PUT /api/auth/password: changes the caller's own password. tokenVersion is incremented in the
   * same write, so every older JWT (this one included) dies; the response carries a fresh token.
   */
  async update({ auth, request, response, logger, serialize }: HttpContext) {
    const user = auth.use('jwt').getUserOrFail()
    const { currentPassword, newPassword } = await request.validateUsing(changePasswordValidator)
    if (!(await hash.verify(user.password, currentPassword))) {
      throw new FieldError(
        'currentPassword',
        'The current password is incorrect',
        'currentPassword'
      )
    }
    if (newPassword === currentPassword) {
      throw new FieldError(
        'newPassword',
        'The new password must differ from the current one',
        'different'
      )
    }
    await setPassword(user, newPassword, 'newPassword')
    logger.info({ event: 'password.changed', userId: user.id }, 'password changed')
    response.header('Cache-Control', 'no-store')
    return serialize(await signAdminToken(user.id, user.tokenVersion))
  }
}
