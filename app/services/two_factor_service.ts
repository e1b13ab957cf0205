import { DateTime } from 'luxon'
import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type User from '#models/user'
import { endSessionsOf } from '#auth/sessions'
import { FieldError, conflict } from '#exceptions/api_exception'
import { withCurrentPassword } from '#auth/current_password'
import { assertAllowed, reserveAttempt, settleFailure, settleSuccess } from '#auth/limits'
import { mfaAccountIpKey, mfaCeilingKey } from '#auth/login_limiter'
import {
  newRecoveryCodes,
  newSecret,
  removeSecondFactor,
  spendRecoveryCode,
  spendTotp,
  storePendingSecret,
  storeRecoveryCodes,
} from '#auth/two_factor'
import { removePasskeys } from '#auth/passkeys'
import { spendOnce } from '#core/secrets'
import { ownSource, recordAudit } from '#services/audit_log'
import { clientOf } from '#core/client'

/** The states an audit row names: `changes: { twoFactor: [before, after] }`. */
export type TwoFactorState = 'none' | 'pending' | 'enabled'

export async function twoFactorState(
  user: User,
  client = db.connection()
): Promise<TwoFactorState> {
  if (user.twoFactorEnabled) return 'enabled'
  const pending = await client.from('two_factor_secrets').where('user_id', user.id).first()
  return pending ? 'pending' : 'none'
}

/**
 * Removes someone's second factors (lost phone or passkey): the admin endpoint and `node ace
 * user:reset-2fa`. Secret, recovery codes, passkeys, open mfaTokens and "remember this device"
 * flags go, and every session ends (tokenVersion + 1): whoever signed in with the old factor
 * signs in again, with the password alone or, under AUTH_REQUIRE_2FA, enrolling a new factor.
 * `audit` writes the caller's row in the same transaction, after `check` (the grant rule) passed
 * in it; `changes` names the TOTP state and how many passkeys were removed.
 */
export async function resetSecondFactor(
  user: User,
  steps: {
    check?: (trx: TransactionClientContract) => Promise<unknown>
    audit: (
      trx: TransactionClientContract,
      changes: Record<string, [unknown, unknown]>
    ) => Promise<unknown>
  }
) {
  await db.transaction(async (trx) => {
    await steps.check?.(trx)
    user.useTransaction(trx)
    const before = await twoFactorState(user, trx)
    await removeSecondFactor(trx, user.id)
    const passkeys = await removePasskeys(trx, user.id)
    user.tokenVersion = user.tokenVersion + 1
    user.twoFactorConfirmedAt = null
    user.passkeyCount = 0
    await user.save()
    await endSessionsOf(user.id, 'two_factor_reset', trx)
    await steps.audit(trx, {
      twoFactor: [before, 'none'],
      ...(passkeys > 0 ? { passkeys: [passkeys, 0] as [number, number] } : {}),
    })
  })
}

/** Own second-factor writes are audited with a pseudo-code naming the route (no permission). */
const selfSource = (ctx: HttpContext, user: User, action: string) =>
  ownSource(user, clientOf(ctx), `auth:2fa:${action}`)

/**
 * A code typed by a signed-in person (confirm, disable): wrong ones count against the second
 * step's (account, address) key and the account's second-step ceiling (app/auth/login_limiter.ts),
 * like a wrong code at login, so neither route lets a stolen token guess codes at leisure. 422 on
 * `code` when wrong.
 */
async function countedCode(ctx: HttpContext, user: User, spend: () => Promise<boolean>) {
  const keys = [mfaAccountIpKey(user.id, ctx.request.ip()), mfaCeilingKey(user.id)]
  await assertAllowed(keys)
  const reservation = await reserveAttempt(keys)
  if (!(await spend())) {
    await settleFailure(reservation)
    throw new FieldError('code', 'wrongAlreadyUsedCode', 'code')
  }
  await settleSuccess(reservation, keys)
}

/**
 * The signed-in person's own second factor (docs/architecture.md, "Second factor"): setup with the
 * password, confirm with a first code (recovery codes shown once), disable with password and code.
 * Each write and its audit row share one transaction.
 */
export default class TwoFactorService {
  /** A new pending secret (replacing a pending one); a confirmed one is never replaced here. */
  async setup(ctx: HttpContext, password: string) {
    return withCurrentPassword(ctx, password, 'password', async (user) => {
      if (user.twoFactorEnabled) {
        throw conflict('secondFactorEnabledDisableFirst')
      }
      const created = await newSecret(user.account)
      await db.transaction(async (trx) => {
        const before = await twoFactorState(user, trx)
        await storePendingSecret(trx, user.id, created.secret)
        await recordAudit(trx, selfSource(ctx, user, 'setup'), {
          targetType: 'user',
          targetId: user.id,
          changes: { twoFactor: [before, 'pending'] },
        })
      })
      return created
    })
  }

  /** The first code of the pending secret enables it; returns the 10 recovery codes, once. */
  async confirm(ctx: HttpContext, user: User, code: string) {
    if (user.twoFactorEnabled) throw conflict('secondFactorEnabled')
    if ((await twoFactorState(user)) !== 'pending') {
      throw conflict('noSecondFactorSetup')
    }
    await countedCode(ctx, user, () => spendTotp(user.id, code))
    const recoveryCodes = newRecoveryCodes()
    await db.transaction(async (trx) => {
      // Conditional: of two concurrent confirmations one wins, the other is a 409.
      const confirmed = await spendOnce(
        trx.from('users').where('id', user.id).whereNull('two_factor_confirmed_at'),
        { two_factor_confirmed_at: DateTime.utc().toFormat(trx.dialect.dateTimeFormat) }
      )
      if (!confirmed) throw conflict('secondFactorEnabled')
      await storeRecoveryCodes(trx, user.id, recoveryCodes)
      await recordAudit(trx, selfSource(ctx, user, 'confirm'), {
        targetType: 'user',
        targetId: user.id,
        changes: { twoFactor: ['pending', 'enabled'] },
      })
    })
    return { recoveryCodes }
  }

  /**
   * Password and a current code (TOTP, or a recovery code for a lost phone) remove the factor,
   * its recovery codes and the "remember this device" flags. Sessions stay: the person proved
   * both factors in this very request.
   */
  async disable(ctx: HttpContext, password: string, code: string) {
    await withCurrentPassword(ctx, password, 'password', async (user) => {
      if (!user.twoFactorEnabled) throw conflict('noSecondFactor')
      await countedCode(ctx, user, () =>
        /^\d{6}$/.test(code) ? spendTotp(user.id, code) : spendRecoveryCode(user.id, code)
      )
      await db.transaction(async (trx) => {
        await removeSecondFactor(trx, user.id)
        await recordAudit(trx, selfSource(ctx, user, 'disable'), {
          targetType: 'user',
          targetId: user.id,
          changes: { twoFactor: ['enabled', 'none'] },
        })
      })
    })
  }
}
