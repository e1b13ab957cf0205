import { DateTime } from 'luxon'
import string from '@adonisjs/core/helpers/string'
import type { Logger } from '@adonisjs/core/logger'
import db from '@adonisjs/lucid/services/db'
import { errors as limiterErrors } from '@adonisjs/limiter'
import User from '#models/user'
import adminAuthConfig from '#config/admin_auth'
import { spendCredential } from '#captcha/captcha_service'
import { captchaTokenInvalid, emailTokenInvalid, tooManyRequests } from '#exceptions/api_exception'
import { type LimitKey, consume, countFailure } from '#auth/limits'
import { ipKey } from '#auth/login_limiter'
import { recordLogin } from '#auth/login_log'
import { issueDeviceToken } from '#auth/device_tokens'
import type { CeilingReached, SecondStepFailed } from '#login/sign_in'
import {
  type LinkPurpose,
  checkCode,
  findLink,
  findLinkRow,
  issueCode,
  issueLink,
  replacedAddresses,
  retireAfterUndo,
  spendCode,
  spendLink,
} from '#auth/email_tokens'
import { removePasskeys } from '#auth/passkeys'
import { setPassword } from '#services/admin_account_service'
import { findAccount } from '#auth/passwords'
import { MASKED, OWN_PROFILE, ownSource, recordAudit } from '#services/audit_log'
import { addressKey } from '#core/address_key'
import type { Client } from '#core/client'
import { afterAnswer, assertMailEnabled, mailEnabled, sendMail } from '#services/email/outbox'
import {
  type Mail,
  consoleLink,
  deviceLinkMail,
  emailChangedMail,
  lockNoticeMail,
  passwordResetMail,
  resetNoticeMail,
  secondStepNoticeMail,
  verifyCodeMail,
} from '#services/email/mails'

/**
 * The mails of an account (docs/email.md): the address's code, the password-reset and device
 * links, the lock notice. Only a verified address receives a link or a notice.
 */

/** Mails per key and window: one link of each kind per account per 15 min, 3 codes. */
const MAIL_WINDOW = 15 * 60
const linkKey = (purpose: LinkPurpose, account: string): LimitKey => ({
  key: `mail_${purpose}_${account.toLowerCase()}`,
  requests: 1,
  seconds: MAIL_WINDOW,
})
const codeKey = (userId: number): LimitKey => ({
  key: `mail_verify_email_${userId}`,
  requests: 3,
  seconds: MAIL_WINDOW,
})
/**
 * The notice of a refused second step: one per account per day. The password is known either way;
 * the first mail says so, more would add nothing but noise (and a reset link each).
 */
const SECOND_STEP_NOTICE_WINDOW = 24 * 60 * 60
const secondStepNoticeKey = (userId: number): LimitKey => ({
  key: `mail_second_step_${userId}`,
  requests: 1,
  seconds: SECOND_STEP_NOTICE_WINDOW,
})
/** One key of each allowance and window above (tests create their limiters first). */
export const mailLimitSamples = () => [
  linkKey('device_link', ''),
  codeKey(0),
  secondStepNoticeKey(0),
]

/** Spends one allowance; false when none is left (the limiter's refusal), else its count. */
async function take(limit: LimitKey) {
  try {
    await consume(limit)
    return true
  } catch (error) {
    if (error instanceof limiterErrors.E_TOO_MANY_REQUESTS) return false
    throw error
  }
}

/** How long after an email change a reset mail also tells the replaced address. */
export const RESET_NOTICE_MS = 72 * 3600_000

type RequestedLink = Exclude<LinkPurpose, 'email_undo'>
const LINKS: Record<RequestedLink, { route: string; mail: (a: string, l: string) => Mail }> = {
  password_reset: { route: 'reset-password', mail: passwordResetMail },
  device_link: { route: 'enrol-device', mail: deviceLinkMail },
}

/**
 * POST /api/auth/password/forgot and /api/auth/devices/request: the captcha credential is spent
 * (400 when it is not valid for this account and address), then the answer is 202 whatever the
 * account. Everything that depends on the account runs after the answer (afterAnswer), the same
 * queries on every path: the account, the per-account mail allowance (spent for unknown accounts
 * too), then, for an enabled account with a verified address, the link and its mail.
 */
export async function requestLink(
  purpose: RequestedLink,
  input: Client & { account: string; captchaToken?: string },
  logger: Logger
) {
  assertMailEnabled()
  if (!(await spendCredential(input.captchaToken, input.ip, input.account))) {
    await countFailure(ipKey(input.ip))
    throw captchaTokenInvalid()
  }
  afterAnswer(`mail.${purpose}`, async () => {
    const user = await findAccount(input.account)
    const allowed = await take(linkKey(purpose, input.account))
    if (!allowed || !user || !user.isEnabled || !user.emailVerified) {
      logger.info(
        { event: `mail.${purpose}.skipped`, account: input.account, ip: input.ip },
        'no mail sent'
      )
      return
    }
    const token = await issueLink(user.id, purpose)
    const { route, mail } = LINKS[purpose]
    await sendMail(user.email!, mail(user.account, consoleLink(route, token)))
    logger.info({ event: `mail.${purpose}.sent`, userId: user.id, ip: input.ip }, 'mail sent')
    if (purpose === 'password_reset') {
      // A reset soon after an email change: the replaced (verified) addresses hear of it too.
      const since = Date.now() - RESET_NOTICE_MS
      for (const address of await replacedAddresses(user.id, since, user.email)) {
        await sendMail(address, resetNoticeMail(user.account))
        logger.info({ event: 'mail.reset_notice.sent', userId: user.id }, 'mail sent')
      }
    }
    await recordLogin({
      ...input,
      userId: user.id,
      outcome: purpose === 'password_reset' ? 'reset_link_sent' : 'device_link_sent',
    })
  })
}

/**
 * POST /api/auth/password/reset: the link's account gets the password (policy and history:
 * setPassword, so tokenVersion + 1, every session and device ends, the blocks are cleared); the
 * link is spent in that transaction, with the audit row. A second factor stays as it was.
 */
export async function resetPasswordWithLink(token: string, password: string, client: Client) {
  assertMailEnabled()
  const userId = await findLink(token, 'password_reset')
  const user = userId ? await User.find(userId) : null
  if (!user || !user.isEnabled) throw emailTokenInvalid()
  await setPassword(
    user,
    password,
    'password',
    async (trx) => {
      await spendLink(trx, token, 'password_reset', user.id)
      await recordAudit(trx, ownSource(user, client, 'own:password-reset'), {
        targetType: 'user',
        targetId: user.id,
        changes: { password: [MASKED, MASKED] },
      })
    },
    client
  )
  await recordLogin({
    ...client,
    account: user.account,
    userId: user.id,
    outcome: 'password_reset',
  })
}

/**
 * POST /api/auth/devices/enrol: the link is spent and this browser gets a device token of the
 * account (an owner's key through the ceiling; the password and a second factor are still asked).
 */
export async function enrolDevice(token: string, client: Client) {
  assertMailEnabled()
  const userId = await findLink(token, 'device_link')
  const user = userId ? await User.find(userId) : null
  if (!user || !user.isEnabled) throw emailTokenInvalid()
  const device = await db.transaction(async (trx) => {
    await spendLink(trx, token, 'device_link', user.id)
    return issueDeviceToken(user.id, client, false, trx)
  })
  await recordLogin({
    ...client,
    account: user.account,
    userId: user.id,
    outcome: 'device_enrolled',
  })
  return { deviceToken: device.token, account: user.account }
}

/**
 * The undo link of an own email change (app/services/profile_service.ts issued it in the change's
 * transaction), mailed after the answer to the replaced address.
 */
export function mailUndoLink(user: User, replaced: string, token: string, logger: Logger) {
  const { account, email, id } = user
  afterAnswer('mail.email_undo', async () => {
    await sendMail(replaced, emailChangedMail(account, email, consoleLink('undo-email', token)))
    logger.info({ event: 'mail.email_undo.sent', userId: id }, 'mail sent')
  })
}

/**
 * POST /api/auth/email/undo: the link mailed to an address an own change replaced. In one
 * transaction, through setPassword as a reset (policy and history, tokenVersion + 1, every
 * session and device ends, blocks cleared): the link is spent, the account's other live mailed
 * secrets and the undo links of later changes die, the address comes back verified, passkeys
 * registered since the change are removed (they would sign in without a password), audit row
 * `own:email-undo`. 422 on the password leaves the link usable.
 */
export async function undoEmailChange(token: string, password: string, client: Client) {
  assertMailEnabled()
  const link = await findLinkRow(token, 'email_undo')
  const user = link ? await User.find(link.userId) : null
  if (!link?.email || !user || !user.isEnabled) throw emailTokenInvalid()
  const replaced = user.email
  await setPassword(user, password, 'password', async (trx) => {
    await spendLink(trx, token, 'email_undo', user.id)
    await retireAfterUndo(trx, user.id, link.id)
    user.email = link.email
    user.emailVerifiedAt = DateTime.now()
    await user.save()
    const passkeys = await removePasskeys(trx, user.id, link.createdAt)
    await recordAudit(trx, ownSource(user, client, 'own:email-undo'), {
      targetType: 'user',
      targetId: user.id,
      changes: {
        email: [replaced, link.email],
        password: [MASKED, MASKED],
        ...(passkeys ? { passkeysSinceChange: [passkeys, 0] } : {}),
      },
    })
  })
  await recordLogin({
    ...client,
    account: user.account,
    userId: user.id,
    outcome: 'email_change_undone',
  })
}

/**
 * A code for the account's current (unverified) address, mailed after the answer. `strict`: a
 * spent allowance is a 429 (the resend route); otherwise no code is sent (a profile change).
 */
export async function sendVerificationCode(user: User, logger: Logger, strict = false) {
  assertMailEnabled()
  if (!user.email || user.emailVerified) return false
  if (!(await take(codeKey(user.id)))) {
    if (strict) throw tooManyRequests(MAIL_WINDOW, codeKey(user.id).requests)
    return false
  }
  const code = await issueCode(user.id, user.email)
  const { email, account, id } = user
  afterAnswer('mail.verify_email', async () => {
    await sendMail(email, verifyCodeMail(account, code))
    logger.info({ event: 'mail.verify_email.sent', userId: id }, 'mail sent')
  })
  return true
}

/** POST /api/auth/profile/email/verify: the code mailed to the current address marks it verified. */
export async function verifyEmail(user: User, code: string, client: Client) {
  assertMailEnabled()
  const checked = await checkCode(user.id, user.email, code)
  await db.transaction(async (trx) => {
    await spendCode(trx, checked)
    user.useTransaction(trx)
    user.emailVerifiedAt = DateTime.now()
    await user.save()
    await recordAudit(trx, ownSource(user, client, OWN_PROFILE), {
      targetType: 'user',
      targetId: user.id,
      changes: { emailVerified: [false, true] },
    })
  })
  return user
}

const capWindowSeconds = string.seconds.parse(adminAuthConfig.limits.capWindow)
const FAILED = ['wrong_password', 'unknown_account', 'account_disabled']

/**
 * The ceiling of an account was reached (app/login/password_step.ts emits `auth:ceiling_reached`
 * for the failure that took its last allowance, once per window; start/events.ts): its owner is told, after the answer, when the address is
 * verified: how many failures, from how many addresses (distinct address keys in the login log
 * since the window started, this attempt's included), what to do.
 */
export function noticeLock({ userId, ip, windowEndsIn }: CeilingReached, logger: Logger) {
  if (!mailEnabled()) return
  afterAnswer('mail.lock_notice', async () => {
    const user = await User.find(userId)
    if (!user || !user.emailVerified) return
    // windowEndsIn is in whole seconds (rounded up): a second earlier, so the window's first
    // failures are not left out on a database that keeps milliseconds.
    const since = DateTime.utc().minus({
      seconds: Math.max(0, capWindowSeconds - windowEndsIn + 1),
    })
    const rows: { ip: string }[] = await db
      .from('login_logs')
      .whereRaw('lower(account) = ?', [user.account.toLowerCase()])
      .whereIn('outcome', FAILED)
      .where('created_at', '>=', since.toFormat(db.connection().dialect.dateTimeFormat))
      .distinct('ip')
    // This attempt's row may not be written yet: its address counts anyway.
    const keys = new Set(
      [ip, ...rows.map((row) => row.ip)].filter((a) => a !== '*').map(addressKey)
    )
    const more = rows.some((row) => row.ip === '*')
    const count = keys.size
    const addresses = `${more ? 'more than ' : ''}${count} address${count === 1 && !more ? '' : 'es'}`
    const failures = adminAuthConfig.limits.loginAccountCap
    await sendMail(user.email!, lockNoticeMail(user.account, failures, addresses))
    logger.warn({ event: 'mail.lock_notice.sent', userId, addresses: count }, 'lock notice sent')
  })
}

/**
 * A right password's second step was refused (app/login/second_step.ts emits `auth:second_step_failed`;
 * start/events.ts): the owner of a verified address is told, after the answer, once per account
 * per SECOND_STEP_NOTICE_WINDOW (the allowance is spent first, so a flood of wrong codes costs one
 * store write each and one mail), from which address, with a password-reset link (the reset ends
 * every session and device).
 */
export function noticeSecondStep({ userId, ip }: SecondStepFailed, logger: Logger) {
  if (!mailEnabled()) return
  afterAnswer('mail.second_step_notice', async () => {
    if (!(await take(secondStepNoticeKey(userId)))) return
    const user = await User.find(userId)
    if (!user || !user.isEnabled || !user.emailVerified) return
    const token = await issueLink(user.id, 'password_reset')
    const link = consoleLink(LINKS.password_reset.route, token)
    await sendMail(user.email!, secondStepNoticeMail(user.account, ip, link))
    logger.warn({ event: 'mail.second_step_notice.sent', userId, ip }, 'second step notice sent')
  })
}
