import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import TwoFactorService from '#services/two_factor_service'
import {
  confirmTwoFactorValidator,
  disableTwoFactorValidator,
  setupTwoFactorValidator,
} from '#validators/two_factor'
import { contract } from '#openapi/contract'
import { named, s } from '#openapi/schema'

const setupSchema = named(
  'TwoFactorSetup',
  s.object({
    secret: s.string({ description: 'base32, for typing into an authenticator app' }),
    otpauthUrl: s.string(),
    qrCode: s.string({ description: 'data:image/png;base64 URL of otpauthUrl' }),
  })
)
const recoveryCodesSchema = named('RecoveryCodes', s.object({ recoveryCodes: s.array(s.string()) }))

/** /api/auth/2fa: the caller's own second factor (TOTP, RFC 6238). */
@inject()
export default class TwoFactorController {
  static contract = contract({
    setup: {
      summary: 'Start setting up a second factor: a new secret, pending until confirmed',
      description:
        'Requires the password (a wrong one is a 422, limited per session). Replaces a pending ' +
        'secret; 409 when a second factor is already enabled (disable it first).',
      body: setupTwoFactorValidator,
      data: setupSchema,
      errors: [409, 429],
    },
    confirm: {
      summary: 'Confirm the pending secret with a code; returns 10 recovery codes, shown once',
      body: confirmTwoFactorValidator,
      data: recoveryCodesSchema,
      errors: [409, 429],
    },
    destroy: {
      summary: 'Disable the second factor with the password and a code (TOTP or recovery code)',
      body: disableTwoFactorValidator,
      status: 204,
      errors: [409, 429],
    },
  })

  constructor(protected twoFactor: TwoFactorService) {}

  async setup(ctx: HttpContext) {
    const { password } = await ctx.request.validateUsing(setupTwoFactorValidator)
    ctx.response.header('Cache-Control', 'no-store')
    return ctx.serialize(await this.twoFactor.setup(ctx, password))
  }

  async confirm(ctx: HttpContext) {
    const { code } = await ctx.request.validateUsing(confirmTwoFactorValidator)
    const user = ctx.auth.use('jwt').getUserOrFail()
    ctx.response.header('Cache-Control', 'no-store')
    return ctx.serialize(await this.twoFactor.confirm(ctx, user, code))
  }

  async destroy(ctx: HttpContext) {
    const { password, code } = await ctx.request.validateUsing(disableTwoFactorValidator)
    await this.twoFactor.disable(ctx, password, code)
    return ctx.response.noContent()
  }
}
