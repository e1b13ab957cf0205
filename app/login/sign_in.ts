import type { Client } from '#core/client'
import { OncePerMinute } from '#core/per_minute'
import { DateTime } from 'luxon'
import type { Logger } from '@adonisjs/core/logger'
import db from '@adonisjs/lucid/services/db'
import { signAdminToken } from '#auth/jwt'
import { type Device, findDevice, issueDeviceToken, rotateDevice } from '#auth/device_tokens'
import { createSession } from '#auth/sessions'
import { recordLogin } from '#auth/login_log'
import {
  type LimitKey,
  type Refusal,
  type Reservation,
  assertAllowed,
  oneAtATime,
  reserveAttempt,
} from '#auth/limits'
import type { Assertion } from '#auth/passkeys'
import type { LoginOutcome } from '#models/login_log'
import type User from '#models/user'
import { passkeyInvalid } from '#exceptions/api_exception'

/**
 * What the three ways in (password_step.ts, second_step.ts, passkey_login.ts) share: the
 * accounting of refused attempts and the end of every successful login.
 */

/** An account's ceiling was reached by this failure (`windowEndsIn`: seconds left in its window). */
export type CeilingReached = { userId: number; ip: string; windowEndsIn: number }
/** A right password's second step was refused (a wrong code or a refused passkey): from `ip`. */
export type SecondStepFailed = { userId: number; ip: string }
declare module '@adonisjs/core/types' {
  interface EventsList {
    'auth:ceiling_reached': CeilingReached
    'auth:second_step_failed': SecondStepFailed
  }
}

/**
 * Refused (429) attempts write one warn line, and one login-log row, per refusing key per minute,
 * with how many it stands for: a flood of refusals, from however many addresses, stays as cheap as
 * the limiter makes it (an account's ceiling is one key whatever the addresses).
 */
const refusedLines = new OncePerMinute('login-refused')
async function logRefused(logger: Logger, key: string, input: Client & { account: string }) {
  const refusedBefore = refusedLines.take(key)
  if (refusedBefore === null) return
  logger.warn(
    { event: 'login.throttled', key, account: input.account, ip: input.ip, refusedBefore },
    'login throttled'
  )
  await recordLogin({ ...input, outcome: 'throttled' })
}

/** Runs a limiter step; its refusal is logged (logRefused) and thrown on. */
export async function limited<T>(
  logger: Logger,
  input: Client & { account: string },
  work: () => T
) {
  try {
    return await work()
  } catch (error) {
    const refusedBy = (error as Refusal).refusedBy
    if (refusedBy) await logRefused(logger, refusedBy, input)
    throw error
  }
}

/**
 * A password or code attempt: refused (429) while a key is blocked, else one at a time per
 * `counted` key, with one allowance of every key reserved before `work` runs (limits.ts).
 */
export async function reserved<T>(
  logger: Logger,
  input: Client & { account: string },
  keys: LimitKey[],
  counted: LimitKey,
  work: (reservation: Reservation) => Promise<T>
) {
  await limited(logger, input, () => assertAllowed(keys))
  return oneAtATime(counted.key, async () =>
    work(await limited(logger, input, () => reserveAttempt(keys)))
  )
}

/**
 * The device of a presented token (null without one, for an unknown or foreign one, or for the
 * device's own race with itself); a reused token is recorded and refused (device_tokens.ts).
 */
export const deviceOf = (token: string | undefined, account: string, client: Client) =>
  token ? findDevice(token, account, { ...client, account }) : null

/** The 400 E_PASSKEY_INVALID of a refused assertion, naming a counter regression. */
export const refusedPasskey = (assertion: Exclude<Assertion, { passkey: unknown }>) =>
  passkeyInvalid(
    assertion.refused === 'passkey_counter_regressed' ? 'passkeyCounterRegressed' : 'passkeyInvalid'
  )

/**
 * The end of every successful login (one step, or the second): last login time, the device token
 * (a known device is touched, a new one issued; `remember` marks it to skip the second step), a
 * session row, the login log row and the JWT.
 */
export async function signIn(
  user: User,
  client: Client & { account: string },
  device: Device | null,
  options: { logger: Logger; outcome: LoginOutcome; remember?: boolean }
) {
  const { id: deviceId, token: deviceToken } = device
    ? await rotateDevice(device, client, options.remember)
    : await issueDeviceToken(user.id, client, options.remember)
  // One statement: the previous sign-in and the failures since it move into their own columns.
  await db
    .from('users')
    .where('id', user.id)
    .update({
      previous_login_at: db.raw('last_login_at'),
      previous_login_ip: db.raw('last_login_ip'),
      failed_before_login: db.raw('failed_logins'),
      failed_logins: 0,
      last_login_at: DateTime.utc().toFormat(db.connection().dialect.dateTimeFormat),
      last_login_ip: client.ip.slice(0, 64),
    })
  const sessionId = await createSession(user.id, client, undefined, deviceId)
  await recordLogin({ ...client, userId: user.id, outcome: options.outcome })
  options.logger.info(
    { event: 'login.succeeded', account: client.account, userId: user.id, ip: client.ip },
    'login succeeded'
  )
  return { ...(await signAdminToken(user.id, user.tokenVersion, sessionId)), deviceToken }
}
