import vine from '@vinejs/vine'
import { PASSWORD_MAX } from '#resources/users'
import { line, token } from '#validators/text'

/** A mailed link's secret: 32 random bytes, base64url. */
const linkToken = () =>
  token(128)
    .minLength(1)
    .regex(/^[A-Za-z0-9_-]+$/)

/**
 * POST /api/auth/password/forgot and POST /api/auth/devices/request: the account and a captcha
 * credential (optional here, as at login: a missing one is a 400 E_CAPTCHA_TOKEN_INVALID).
 */
export const mailRequestValidator = vine.create({
  account: line(64).minLength(1),
  captchaToken: token(256).optional(),
})

/** POST /api/auth/password/reset: the link's token and the new password (the policy applies). */
export const passwordResetValidator = vine.create({
  token: linkToken(),
  password: vine.string().minLength(1).maxLength(PASSWORD_MAX),
})

/** POST /api/auth/devices/enrol: the device link's token. */
export const deviceEnrolValidator = vine.create({
  token: linkToken(),
})

/** POST /api/auth/profile/email/verify: the 6-digit code mailed to the address. */
export const verifyEmailValidator = vine.create({
  code: line(64).regex(/^[0-9]{6}$/),
})
