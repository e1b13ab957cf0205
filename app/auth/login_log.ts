import LoginLog, { type LoginOutcome } from '#models/login_log'

/**
 * The login log (README, "Accountability"): one row per login attempt. The stored outcome tells
 * unknown account, wrong password and disabled account apart for the administrators who read the
 * log; the HTTP answer stays the same for all three. Nothing secret is stored: no password,
 * credential, device token or JWT. Lengths are bounded as the columns are.
 */
export type LoginAttempt = {
  account: string
  ip: string
  userAgent?: string
  userId?: number | null
  outcome: LoginOutcome
}

export async function recordLogin(attempt: LoginAttempt) {
  await LoginLog.create({
    account: attempt.account.slice(0, 64),
    userId: attempt.userId ?? null,
    ip: attempt.ip.slice(0, 64),
    userAgent: (attempt.userAgent ?? '').slice(0, 255),
    outcome: attempt.outcome,
  })
}
