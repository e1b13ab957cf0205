import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'

export const LOGIN_OUTCOMES = [
  'succeeded',
  'unknown_account',
  'wrong_password',
  'account_disabled',
  'captcha_token_invalid',
  'throttled',
  // The second factor: password right, code asked; wrong code; unusable mfaToken; a login
  // completed with a recovery code (a TOTP one is `succeeded`).
  'mfa_required',
  'mfa_failed',
  'mfa_token_invalid',
  'recovery_code_used',
  // A superseded device token presented again: every device of the account was revoked; or by the
  // device itself just after its rotation (two tabs): nothing revoked (docs/front-door.md).
  'device_token_reused',
  'device_token_raced',
  // Device tokens revoked (app/auth/device_tokens.ts): one (logout forgetting it, deleted by its
  // owner); every one of the account (password changed or reset, account disabled).
  'device_revoked',
  'devices_revoked',
  // Email (docs/email.md): a reset or device link mailed; a password reset through one; a browser
  // enrolled through one.
  'reset_link_sent',
  'device_link_sent',
  'password_reset',
  'device_enrolled',
  // An email change undone through the link mailed to the replaced address (new password).
  'email_change_undone',
  // Passkeys (docs/front-door.md, "Passkeys"): an assertion refused at the ceiling (at the second
  // step a refusal is `mfa_failed`); a genuine one whose signature counter went back (a copy).
  'passkey_failed',
  'passkey_counter_regressed',
  // Signed in with a passkey alone (no account named, no password); a right password refused
  // because AUTH_PASSKEY_REQUIRED wants this account's passkey.
  'passkey_login',
  'passkey_required',
] as const
export type LoginOutcome = (typeof LOGIN_OUTCOMES)[number]

/**
 * One login attempt, or one minute of refused attempts of one key (app/auth/login_log.ts writes
 * them). No secret is ever a column.
 */
export default class LoginLog extends BaseModel {
  static table = 'login_logs'

  // bigint: node-postgres returns it as a string; the API sends a number on both databases.
  @column({ isPrimary: true, consume: Number })
  declare id: number

  @column.dateTime({ autoCreate: true })
  declare createdAt: DateTime

  @column()
  declare account: string

  @column()
  declare userId: number | null

  @column()
  declare ip: string

  @column()
  declare userAgent: string

  @column()
  declare outcome: LoginOutcome

  /** Attempts this row stands for: refusals are aggregated per key per minute (login_log.ts). */
  @column()
  declare count: number
}
