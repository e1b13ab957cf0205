import vine from '@vinejs/vine'
import { PASSWORD_MAX } from '#services/password_policy'

/** Opaque random identifiers and tokens are base64url. */
const opaque = () =>
  vine
    .string()
    .minLength(1)
    .maxLength(128)
    .regex(/^[A-Za-z0-9_-]+$/)

export const captchaVerifyValidator = vine.create({
  captchaId: opaque(),
  x: vine.number().min(0).max(10_000),
  track: vine
    .array(vine.array(vine.number().min(-100_000).max(10_000_000)).fixedLength(3))
    .maxLength(1000)
    .optional(),
  // The proof-of-work solution for the altcha-lib challenge of this captcha. Optional here on
  // purpose: a missing solution fails the verify (400) and spends the challenge, like a wrong one.
  pow: vine
    .object({
      algorithm: vine.string().maxLength(16),
      challenge: vine.string().maxLength(128),
      number: vine.number().withoutDecimals().min(0).max(100_000_000),
      salt: vine.string().maxLength(512),
      signature: vine.string().maxLength(128),
    })
    .optional(),
})

export const loginValidator = vine.create({
  account: vine.string().trim().minLength(1).maxLength(64),
  // Bounded so nobody makes the server hash megabytes; the policy maximum is the same.
  password: vine.string().minLength(1).maxLength(PASSWORD_MAX),
  // Optional here on purpose: a missing credential is a 400 E_CAPTCHA_TOKEN_INVALID, like an unknown one.
  captchaToken: vine.string().maxLength(256).optional(),
  // The device token an earlier login on this device returned (an invalid one is simply ignored).
  deviceToken: vine.string().maxLength(128).optional(),
})

export const changePasswordValidator = vine.create({
  currentPassword: vine.string().minLength(1).maxLength(PASSWORD_MAX),
  newPassword: vine.string().minLength(1).maxLength(PASSWORD_MAX),
})
