import vine from '@vinejs/vine'
import { PASSWORD_MAX } from '#resources/users'
import { assertionResponse } from '#validators/passkey'
import { line, token } from '#validators/text'

/** Opaque random identifiers and tokens are base64url. */
const opaque = () =>
  token(128)
    .minLength(1)
    .regex(/^[A-Za-z0-9_-]+$/)

const hex = (max: number) => token(max).regex(/^[0-9a-f]*$/)

/** GET /api/auth/captcha: the account the challenge is for (optional; raises its level). */
export const captchaChallengeValidator = vine.create({
  account: line(64).minLength(1).optional(),
})

/** The most parts a challenge can have: 32 parts at level 0, x16 at level 3 (proof_of_work.ts). */
const MAX_PARTS = 512

/**
 * POST /api/auth/captcha: an altcha-lib v2 payload, the challenge as issued and its solution.
 * Shapes and sizes only: the signature decides whether the parameters are this server's.
 */
export const captchaCreateValidator = vine.create({
  pow: vine.object({
    challenge: vine.object({
      parameters: vine.object({
        algorithm: token(16),
        nonce: hex(64),
        salt: hex(64),
        cost: vine
          .number()
          .withoutDecimals()
          .min(1)
          .max(1 << 20),
        keyLength: vine.number().withoutDecimals().min(1).max(64),
        keyPrefix: hex(64).minLength(1),
        memoryCost: vine.number().withoutDecimals().min(1).max(64).optional(),
        parallelism: vine.number().withoutDecimals().min(1).max(16).optional(),
        expiresAt: vine.number().withoutDecimals().min(0).optional(),
        data: vine
          .object({
            address: token(64),
            level: vine.number().withoutDecimals().min(0).max(16),
            account: token(64).nullable(),
            device: vine.boolean({ strict: true }),
            parts: vine.number().withoutDecimals().min(1).max(MAX_PARTS),
          })
          .optional(),
      }),
      signature: hex(128),
    }),
    /** One counter per part, in part order. */
    solution: vine.object({
      counters: vine
        .array(vine.number().withoutDecimals().min(0).max(0xffffffff))
        .minLength(1)
        .maxLength(MAX_PARTS),
    }),
  }),
})

export const captchaVerifyValidator = vine.create({
  captchaId: opaque(),
  x: vine.number().min(0).max(10_000),
  track: vine
    .array(vine.array(vine.number().min(-100_000).max(10_000_000)).fixedLength(3))
    .maxLength(1000)
    .optional(),
  /** How the piece was moved: pointer drag (default) or arrow keys. */
  input: vine.enum(['pointer', 'keyboard'] as const).optional(),
})

export const loginValidator = vine.create({
  account: line(64).minLength(1),
  // Bounded so nobody makes the server hash megabytes; the policy maximum is the same.
  password: vine.string().minLength(1).maxLength(PASSWORD_MAX),
  // Optional here on purpose: a missing credential is a 400 E_CAPTCHA_TOKEN_INVALID, like an unknown one.
  captchaToken: token(256).optional(),
  // The device token an earlier login on this device returned (an invalid one is simply ignored).
  deviceToken: token(128).optional(),
  // A passkey assertion for POST /api/auth/login/passkey/options { account }: passes the ceiling,
  // stands for the captcha credential and the second factor.
  passkey: assertionResponse().optional(),
})

/** POST /api/auth/logout: optionally forget (revoke) the device this session signed in with. */
export const logoutValidator = vine.create({
  forgetDevice: vine.boolean({ strict: true }).optional(),
})

export const changePasswordValidator = vine.create({
  currentPassword: vine.string().minLength(1).maxLength(PASSWORD_MAX),
  newPassword: vine.string().minLength(1).maxLength(PASSWORD_MAX),
})
