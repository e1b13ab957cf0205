import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import PasskeyService from '#services/passkey_service'
import { passkeysOf } from '#auth/passkeys'
import { passkeyPasswordValidator, registerPasskeyValidator } from '#validators/passkey'
import OwnPasskeyTransformer, {
  newPasskeySchema,
  ownPasskeySchema,
} from '#transformers/auth/own_passkey_transformer'
import { registrationOptionsSchema } from '#resources/passkeys'
import { contract } from '#openapi/contract'

/**
 * /api/auth/passkeys: the caller's own passkeys (app/auth/passkeys.ts; docs/front-door.md,
 * "Passkeys"). Registering one settles E_2FA_SETUP_REQUIRED.
 */
@inject()
export default class PasskeysController {
  static contract = contract({
    index: { summary: "The caller's passkeys", list: ownPasskeySchema },
    options: {
      summary: 'Start registering a passkey: WebAuthn creation options',
      description:
        'Requires the password (a wrong one is a 422, limited per session). The challenge is ' +
        'bound to this session, valid 5 minutes and spent by the next POST /api/auth/passkeys. ' +
        'User verification and a discoverable credential are required; attestation `none`. ' +
        '409 at 10 passkeys.',
      body: passkeyPasswordValidator,
      data: registrationOptionsSchema,
      errors: [409, 429],
    },
    store: {
      summary: 'Register a passkey: the authenticator response to the options, and a name',
      description:
        'The response as @simplewebauthn/browser startRegistration returns it. Refused (400 ' +
        'E_PASSKEY_INVALID, nothing stored): no live challenge for this session, another origin ' +
        'or RP ID, no user verification, malformed. 409 when already registered.',
      body: registerPasskeyValidator,
      status: 201,
      data: newPasskeySchema,
      errors: [400, 409],
    },
    destroy: {
      summary: 'Remove one of the own passkeys (password required)',
      body: passkeyPasswordValidator,
      status: 204,
      errors: [404, 429],
    },
  })

  constructor(protected passkeys: PasskeyService) {}

  async index({ auth, response, serialize }: HttpContext) {
    const passkeys = await passkeysOf(auth.use('jwt').getUserOrFail().id)
    response.header('Cache-Control', 'no-store')
    return serialize(OwnPasskeyTransformer.transform(passkeys))
  }

  async options(ctx: HttpContext) {
    const { password } = await ctx.request.validateUsing(passkeyPasswordValidator)
    ctx.response.header('Cache-Control', 'no-store')
    return ctx.serialize(await this.passkeys.options(ctx, password))
  }

  async store(ctx: HttpContext) {
    const { name, response } = await ctx.request.validateUsing(registerPasskeyValidator)
    const passkey = await this.passkeys.register(ctx, name, response)
    ctx.response.status(201)
    const { id, createdAt } = new OwnPasskeyTransformer(passkey).toObject()
    return ctx.serialize({ id, name: passkey.name, createdAt })
  }

  async destroy(ctx: HttpContext) {
    const { password } = await ctx.request.validateUsing(passkeyPasswordValidator)
    await this.passkeys.remove(ctx, Number(ctx.params.id), password)
    return ctx.response.noContent()
  }
}
