import type { HttpContext } from '@adonisjs/core/http'
import { clientOf } from '#core/client'
import { login } from '#login/password_step'
import { loginSecondStep } from '#login/second_step'
import { loginWithPasskey, passkeyOptions } from '#login/passkey_login'
import { setRateLimitHeaders } from '#auth/limits'
import { deviceOfSession, endSession } from '#auth/sessions'
import { revokeDevice } from '#auth/device_tokens'
import { loginValidator, logoutValidator } from '#validators/auth'
import { loginSecondStepValidator } from '#validators/two_factor'
import { passkeyLoginOptionsValidator, passkeyLoginValidator } from '#validators/passkey'
import { authenticationOptionsSchema } from '#resources/passkeys'
import { contract } from '#openapi/contract'
import { tokenSchema } from '#auth/jwt'
import { named, s } from '#openapi/schema'

/** What a completed login returns: the JWT and the device token. */
const signedInSchema = named(
  'SignedIn',
  s.object({ ...(tokenSchema.properties as object), deviceToken: s.string() })
)
/** What a right password of an account with a second factor returns instead. */
const mfaRequiredSchema = named(
  'MfaRequired',
  s.object({
    mfaRequired: { const: true },
    mfaToken: s.string(),
    expiresIn: s.integer({ description: 'seconds' }),
    methods: s.array(s.enum(['totp', 'passkey'])),
  })
)

export default class SessionController {
  static contract = contract({
    store: {
      summary: 'Log in with account, password and the captcha credential',
      description:
        'Returns the admin JWT and a device token (send it back on later logins: a device ' +
        'that logged in before keeps its own failure allowance while the account is attacked). ' +
        'An account with a second factor gets `mfaRequired: true`, an `mfaToken` and the ' +
        '`methods` it has (`totp`, `passkey`) instead (no JWT, no session, no device token): ' +
        'continue with POST /api/auth/login/2fa or /api/auth/login/passkey. A device ' +
        'remembered at a second step skips it. `passkey` (an assertion for the options of POST ' +
        '/api/auth/login/passkey/options { account, captchaToken }) replaces `captchaToken`, ' +
        'passes the ceiling (the attempt counts against that passkey alone) and is the second ' +
        'factor: a right password then signs in. A refused assertion is a 400 E_PASSKEY_INVALID ' +
        '(no password checked). An account AUTH_PASSKEY_REQUIRED covers that holds a passkey gets ' +
        '403 E_PASSKEY_REQUIRED after a right password (a wrong one is the usual 401).',
      body: loginValidator,
      data: { oneOf: [signedInSchema, mfaRequiredSchema] },
      errors: [400, 401, 403, 429, 503],
    },
    passkeyOptions: {
      summary: 'WebAuthn authentication options: second step, ceiling, or a passkey alone',
      description:
        'With `mfaToken`: the options for the account of the password step (its passkeys in ' +
        '`allowCredentials`; 409 without one), then POST /api/auth/login/passkey. With `account` ' +
        'and `captchaToken` (spent): options bound to that account and this address, then POST ' +
        '/api/auth/login with `passkey`; the same answer for every account name (no account is ' +
        'looked up; `allowCredentials` is empty: discoverable passkeys). With an empty body: ' +
        'options for a sign-in with a passkey alone (POST /api/auth/login/passkey without ' +
        'mfaToken); nothing is stored, the challenge is signed for this address; limited per ' +
        'address per minute (429). Challenges are single use, 5 minutes; user verification ' +
        'required.',
      body: passkeyLoginOptionsValidator,
      data: authenticationOptionsSchema,
      errors: [400, 409, 429],
    },
    passkey: {
      summary: 'Sign in with a passkey: alone, or as the second step (with the mfaToken)',
      description:
        'Answers as a completed login. Without `mfaToken`: a sign-in with a passkey alone for ' +
        'the options of an empty POST /api/auth/login/passkey/options (the passkey names the ' +
        'account; no password, no captcha; it meets AUTH_REQUIRE_2FA and passes the ceiling); ' +
        'a refused assertion counts against the address, a disabled account is a 401. A refused ' +
        'assertion (400 E_PASSKEY_INVALID: challenge spent, replayed or expired, another ' +
        'origin, address or RP ID, no user verification, a passkey of another account, a ' +
        'signature counter that went back, malformed) counts as a wrong code at the second step.',
      body: passkeyLoginValidator,
      data: signedInSchema,
      errors: [400, 401, 429],
    },
    secondStep: {
      summary: 'Second login step: the mfaToken and a TOTP code or a recovery code',
      description:
        'Answers as a completed login. A code is accepted once; the mfaToken lives 5 minutes, ' +
        'is spent by the first right code and dies after 5 wrong ones (400 E_MFA_TOKEN_INVALID: ' +
        'log in again). Wrong codes are limited per account and address (429). ' +
        '`rememberDevice: true` lets this device skip the second step from now on.',
      body: loginSecondStepValidator,
      data: signedInSchema,
      errors: [400, 401, 429],
    },
    destroy: {
      summary: 'Log out: end the session of this token',
      description:
        '`forgetDevice: true` also revokes the device this session signed in with: its token ' +
        'stops working and a "remember" of the second factor ends with it.',
      body: logoutValidator,
      status: 204,
    },
  })

  /** POST /api/auth/login: account, password and the one-time captcha credential -> admin JWT. */
  async store(ctx: HttpContext) {
    const input = await ctx.request.validateUsing(loginValidator)
    return this.send(ctx, await login({ ...input, ...clientOf(ctx) }, ctx.logger))
  }

  /** POST /api/auth/login/2fa: the mfaToken of the password step and a code -> admin JWT. */
  async secondStep(ctx: HttpContext) {
    const input = await ctx.request.validateUsing(loginSecondStepValidator)
    return this.send(ctx, await loginSecondStep({ ...input, ...clientOf(ctx) }, ctx.logger))
  }

  /** POST /api/auth/login/passkey/options: options for the second step or the ceiling. */
  async passkeyOptions(ctx: HttpContext) {
    const input = await ctx.request.validateUsing(passkeyLoginOptionsValidator)
    ctx.response.header('Cache-Control', 'no-store')
    return ctx.serialize(await passkeyOptions({ ...input, ...clientOf(ctx) }, ctx.logger))
  }

  /** POST /api/auth/login/passkey: an assertion (and the mfaToken of a second step) -> JWT. */
  async passkey(ctx: HttpContext) {
    const input = await ctx.request.validateUsing(passkeyLoginValidator)
    return this.send(ctx, await loginWithPasskey({ ...input, ...clientOf(ctx) }, ctx.logger))
  }

  /** Both steps answer with rate-limit headers, never cached. */
  protected send<Answer extends { body: object; rateLimit: RateLimit }>(
    { response, serialize }: HttpContext,
    answer: Answer
  ) {
    setRateLimitHeaders(response, answer.rateLimit)
    response.header('Cache-Control', 'no-store')
    return serialize(answer.body as Record<string, unknown>) as Promise<{ data: Answer['body'] }>
  }

  /** POST /api/auth/logout: ends the session of this token; its next request is a 401. */
  async destroy(ctx: HttpContext) {
    const { auth, request, response } = ctx
    const { forgetDevice } = await request.validateUsing(logoutValidator)
    const guard = auth.use('jwt')
    const sessionId = guard.getSessionIdOrFail()
    const deviceId = forgetDevice ? await deviceOfSession(sessionId) : null
    const user = guard.getUserOrFail()
    if (deviceId) {
      await revokeDevice(user.id, deviceId, {
        reason: 'logout',
        account: user.account,
        ...clientOf(ctx),
      })
    }
    await endSession(sessionId, 'logout')
    return response.noContent()
  }
}

type RateLimit = Parameters<typeof setRateLimitHeaders>[1]
