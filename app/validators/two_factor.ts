import vine from '@vinejs/vine'
import { PASSWORD_MAX } from '#resources/users'
import { line, token } from '#validators/text'

/** The second factor (docs/architecture.md, "Second factor"). A TOTP code is 6 digits. */
const totpCode = () => line(64).regex(/^\d{6}$/)
/** A recovery code as shown (`abcd-efgh-ijkl-mnop`); case, spaces and dashes are ignored. */
const recoveryCode = () => line(32).regex(/^[A-Za-z2-7 -]+$/)
const password = () => vine.string().minLength(1).maxLength(PASSWORD_MAX)

/** POST /api/auth/2fa/setup */
export const setupTwoFactorValidator = vine.create({ password: password() })

/** POST /api/auth/2fa/confirm: a code of the pending secret. */
export const confirmTwoFactorValidator = vine.create({ code: totpCode() })

/** DELETE /api/auth/2fa: the password and a current code (a TOTP code or a recovery code). */
export const disableTwoFactorValidator = vine.create({
  password: password(),
  code: line(32).minLength(6),
})

/** POST /api/auth/login/2fa: the mfaToken of the password step and one of the two codes. */
export const loginSecondStepValidator = vine.create({
  mfaToken: token(128).regex(/^[A-Za-z0-9_-]+$/),
  code: totpCode().optional().requiredIfMissing('recoveryCode'),
  recoveryCode: recoveryCode().optional(),
  deviceToken: token(128).optional(),
  /** Skip the second step on this device from now on (until its device token ends). */
  rememberDevice: vine.boolean({ strict: true }).optional(),
})
