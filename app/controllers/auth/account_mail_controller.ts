import type { HttpContext } from '@adonisjs/core/http'
import { clientOf } from '#core/client'
import { contract } from '#openapi/contract'
import { named, s } from '#openapi/schema'
import {
  deviceEnrolValidator,
  mailRequestValidator,
  passwordResetValidator,
  verifyEmailValidator,
} from '#validators/email'
import {
  enrolDevice,
  requestLink,
  resetPasswordWithLink,
  sendVerificationCode,
  undoEmailChange,
  verifyEmail,
} from '#services/email/email_service'
import { mailEnabled } from '#services/email/outbox'
import CurrentUserTransformer, {
  currentUserSchema,
} from '#transformers/auth/current_user_transformer'

/** The one answer of a mail request, whatever the account (docs/email.md). */
const acceptedSchema = named('MailAccepted', s.object({ accepted: { const: true } }))
const ACCEPTED = { data: { accepted: true as const } }
const WHEN_OFF = ' Without SMTP_HOST: 404 E_NOT_FOUND (GET /api/auth/features says `mail: false`).'

/**
 * The mails of an account (docs/email.md): forgot password, device links, the address's code,
 * and GET /api/auth/features (what the console may offer before anyone signs in).
 */
export default class AccountMailController {
  static contract = contract({
    features: {
      summary: 'What this server offers before sign-in (mail: the email routes)',
      data: named('Features', s.object({ mail: s.boolean() })),
    },
    forgot: {
      summary: 'Mail a password-reset link (202 whatever the account)',
      description:
        'Spends a captcha credential (as a login does). The answer is the same, and as fast, ' +
        'for any account: a single-use link (15 min) is mailed only to an enabled account with a ' +
        'verified address, at most one per account per 15 minutes.' +
        WHEN_OFF,
      body: mailRequestValidator,
      status: 202,
      data: acceptedSchema,
      errors: [400, 404],
    },
    reset: {
      summary: 'Choose a new password with the mailed link',
      description:
        'The password policy and history apply (422, and the link still works). The link is ' +
        'spent; tokenVersion + 1: every session and remembered device of the account ends; a ' +
        'second factor is still asked at the next sign-in. 400 E_EMAIL_TOKEN_INVALID for an ' +
        'unknown, expired, used or foreign link.' +
        WHEN_OFF,
      body: passwordResetValidator,
      status: 204,
      errors: [400, 404],
    },
    undoEmail: {
      summary: 'Undo an email change with the link mailed to the replaced address',
      description:
        'An own email change mails the replaced (verified) address a single-use link (7 days). ' +
        'It restores that address (verified) and sets a new password as a reset does (policy ' +
        'and history: 422, and the link still works): tokenVersion + 1, every session, ' +
        'remembered device and API token of the account ends; mailed links and codes of the ' +
        'account and the undo links of later changes die; passkeys registered since the change ' +
        'are removed. 400 E_EMAIL_TOKEN_INVALID for an unknown, expired, used or retired link.' +
        WHEN_OFF,
      body: passwordResetValidator,
      status: 204,
      errors: [400, 404],
    },
    requestDevice: {
      summary: 'Mail a sign-in link for this browser (202 whatever the account)',
      description:
        'As forgot: a single-use link (15 min) that enrols a browser (POST ' +
        '/api/auth/devices/enrol), which then passes the account lock like any device token.' +
        WHEN_OFF,
      body: mailRequestValidator,
      status: 202,
      data: acceptedSchema,
      errors: [400, 404],
    },
    enrol: {
      summary: "Spend a device link: this browser's device token",
      description:
        "Send it with the next login (`deviceToken`): an owner's key, its own failure budget, " +
        'past the ceiling. The password and a second factor are still asked.' +
        WHEN_OFF,
      body: deviceEnrolValidator,
      data: named('EnrolledDevice', s.object({ deviceToken: s.string(), account: s.string() })),
      errors: [400, 404],
    },
    verify: {
      summary: 'Confirm the own email address with the mailed 6-digit code',
      description:
        'A changed address gets a code (10 min, 5 tries). 400 E_EMAIL_CODE_INVALID when it is ' +
        'wrong, expired, used up, or was sent to another address.' +
        WHEN_OFF,
      body: verifyEmailValidator,
      data: currentUserSchema,
      errors: [400, 404],
    },
    resendCode: {
      summary: 'Mail a new code to the own unverified address (3 per 15 min)',
      status: 202,
      data: acceptedSchema,
      errors: [404, 429],
    },
  })

  features({ response }: HttpContext) {
    response.header('Cache-Control', 'no-cache')
    return { data: { mail: mailEnabled() } }
  }

  async forgot(ctx: HttpContext) {
    const input = await ctx.request.validateUsing(mailRequestValidator)
    await requestLink('password_reset', { ...input, ...clientOf(ctx) }, ctx.logger)
    return ctx.response.status(202).send(ACCEPTED)
  }

  async reset(ctx: HttpContext) {
    const { token, password } = await ctx.request.validateUsing(passwordResetValidator)
    await resetPasswordWithLink(token, password, clientOf(ctx))
    return ctx.response.noContent()
  }

  async undoEmail(ctx: HttpContext) {
    const { token, password } = await ctx.request.validateUsing(passwordResetValidator)
    await undoEmailChange(token, password, clientOf(ctx))
    return ctx.response.noContent()
  }

  async requestDevice(ctx: HttpContext) {
    const input = await ctx.request.validateUsing(mailRequestValidator)
    await requestLink('device_link', { ...input, ...clientOf(ctx) }, ctx.logger)
    return ctx.response.status(202).send(ACCEPTED)
  }

  async enrol(ctx: HttpContext) {
    const { token } = await ctx.request.validateUsing(deviceEnrolValidator)
    ctx.response.header('Cache-Control', 'no-store')
    return { data: await enrolDevice(token, clientOf(ctx)) }
  }

  async verify(ctx: HttpContext) {
    const { code } = await ctx.request.validateUsing(verifyEmailValidator)
    const user = ctx.auth.use('jwt').getUserOrFail()
    await verifyEmail(user, code, clientOf(ctx))
    return ctx.serialize(CurrentUserTransformer.transform(user))
  }

  async resendCode(ctx: HttpContext) {
    await sendVerificationCode(ctx.auth.use('jwt').getUserOrFail(), ctx.logger, true)
    return ctx.response.status(202).send(ACCEPTED)
  }
}
