import db from '@adonisjs/lucid/services/db'
import LoginLog, { type LoginOutcome } from '#models/login_log'
import { addressKey } from '#core/address_key'
import type { Client } from '#core/client'
import { rowsChanged } from '#core/secrets'
import { RefusalRows } from '#core/refusal_rows'
import { OncePerMinute } from '#core/per_minute'
import { loginAttempts } from '#core/operations/metrics'

/**
 * The login log (docs/architecture.md, "Accountability"): one row per successful login, and one row per key
 * per minute for refused attempts (every other outcome), its `count` saying how many it stands for
 * (app/core/refusal_rows.ts). The stored outcome tells unknown account, wrong password and
 * disabled account apart for the administrators who read the log; the HTTP answer stays the same
 * for all three. Nothing secret is stored: no password, credential, device token or JWT. Lengths
 * are bounded as the columns are.
 */
export type LoginAttempt = Client & {
  account: string
  userId?: number | null
  outcome: LoginOutcome
}

/**
 * Rows of refusals per account per minute. The key of a refusal is (outcome, account lowercased,
 * address key), so an attacker rotating addresses would still get a row per address; beyond this
 * many rows an account's refusals of the minute go to one overflow row per outcome whose ip is
 * '*' (what a flood hides is which further addresses took part, not how many attempts there were).
 */
export const MAX_REFUSAL_ROWS_PER_ACCOUNT = 10
export const OVERFLOW_IP = '*'

type StoredRow = { id: number; account: string }
const refusals = new RefusalRows<StoredRow>('login-refusal-rows')
const rowsPerAccount = new OncePerMinute('login-refusal-rows-per-account')

/** Completed steps: a row each (the rest is aggregated). */
const ONE_ROW_EACH = new Set<LoginOutcome>([
  'succeeded',
  'recovery_code_used',
  'passkey_login',
  'password_reset',
  'device_enrolled',
  'email_change_undone',
])

export async function recordLogin(attempt: LoginAttempt) {
  loginAttempts.inc({ outcome: attempt.outcome })
  const row = {
    account: attempt.account.slice(0, 64),
    userId: attempt.userId ?? null,
    ip: attempt.ip.slice(0, 64),
    userAgent: (attempt.userAgent ?? '').slice(0, 255),
    outcome: attempt.outcome,
  }
  // Completed logins are one row each; everything else is aggregated per key per minute.
  if (ONE_ROW_EACH.has(attempt.outcome)) {
    await LoginLog.create(row)
    return
  }

  const account = row.account.toLowerCase()
  let key = `${row.outcome}\n${account}\n${addressKey(attempt.ip)}`
  if (!refusals.has(key) && rowsPerAccount.take(account, MAX_REFUSAL_ROWS_PER_ACCOUNT) === null) {
    key = `${row.outcome}\n${account}\n${OVERFLOW_IP}`
    row.ip = OVERFLOW_IP
  }
  await refusals.record(
    key,
    async () => {
      const created = await LoginLog.create(row)
      return { id: created.id, account: created.account }
    },
    // The row's own account and outcome too: an id alone could name another row after a rollback.
    async (stored) =>
      rowsChanged(
        await db
          .from('login_logs')
          .where('id', stored.id)
          .where('outcome', row.outcome)
          .where('account', stored.account)
          .update({ count: db.raw('count + 1') })
      ) > 0
  )
}
