import type { HttpContext } from '@adonisjs/core/http'
import hash from '@adonisjs/core/services/hash'
import type User from '#models/user'
import { hashGate } from '#core/cpu_gates'
import { FieldError, unauthorized } from '#exceptions/api_exception'
import {
  type LimitKey,
  assertAllowed,
  oneAtATime,
  reserveAttempt,
  setRateLimitHeaders,
  settleFailure,
  settleSuccess,
} from '#auth/limits'
import { accountKey, sessionKey } from '#auth/login_limiter'

/**
 * The signed-in person proves their password again (password change, second-factor setup and
 * disable). The check is a password attempt counted per signed-in session (`sessionKey`, the
 * JWT's session id: 429 while that session is blocked), not against the account's anonymous login
 * counter, so a burst of wrong logins by anyone who knows the account name cannot stop its owner
 * here. Checks run one at a time per account, so a stolen token can neither guess at leisure nor
 * flood the server with argon2id. `work` runs after a right password, in the same turn (a change
 * that ran while this one waited and revoked this request's token is a 401). A wrong password is
 * a 422 on `field`.
 */
export async function withCurrentPassword<T>(
  { auth, response }: HttpContext,
  password: string,
  field: string,
  work: (user: User, keys: LimitKey[]) => Promise<T>
): Promise<T> {
  const guard = auth.use('jwt')
  const user = guard.getUserOrFail()
  const keys = [sessionKey(guard.getSessionIdOrFail())]
  await assertAllowed(keys)
  const authenticatedVersion = user.tokenVersion
  return oneAtATime(accountKey(user.account).key, async () => {
    await user.refresh()
    if (user.tokenVersion !== authenticatedVersion || !user.isEnabled) throw unauthorized()
    const reservation = await reserveAttempt(keys)
    const { remaining, resetIn } = reservation[0]
    setRateLimitHeaders(response, { limit: keys[0].requests, remaining, resetIn })
    const digest = user.password
    const matches = await hashGate.run('trusted', () => hash.verify(digest, password))
    if (!matches) {
      await settleFailure(reservation)
      const message =
        field === 'currentPassword' ? 'The current password is incorrect' : 'Wrong password'
      throw new FieldError(field, message, field)
    }
    await settleSuccess(reservation, [keys[0]])
    return work(user, keys)
  })
}
