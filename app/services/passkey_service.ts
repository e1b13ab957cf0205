import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'
import type User from '#models/user'
import Passkey from '#models/passkey'
import { withCurrentPassword } from '#auth/current_password'
import {
  type RegistrationInput,
  registrationOptions,
  removePasskey,
  storePasskey,
  verifyRegistration,
} from '#auth/passkeys'
import { notFound } from '#exceptions/api_exception'
import { ownSource, recordAudit } from '#services/audit_log'
import { clientOf } from '#core/client'

/** Own passkey writes are audited with a pseudo-code naming the route (no permission). */
const selfSource = (ctx: HttpContext, user: User, action: string) =>
  ownSource(user, clientOf(ctx), `auth:passkey:${action}`)

/**
 * The signed-in person's own passkeys (app/auth/passkeys.ts): options after the password, the
 * verified credential stored under a name, removal with the password. Each write and its audit
 * row share one transaction.
 */
export default class PasskeyService {
  /** Registration options; the password first (a wrong one is a 422, limited per session). */
  options(ctx: HttpContext, password: string) {
    const sessionId = ctx.auth.use('jwt').getSessionIdOrFail()
    return withCurrentPassword(ctx, password, 'password', (user) =>
      registrationOptions(user, sessionId)
    )
  }

  /** Verifies the response to this session's options and stores the passkey (nothing when refused). */
  async register(ctx: HttpContext, name: string, response: RegistrationInput) {
    const guard = ctx.auth.use('jwt')
    const user = guard.getUserOrFail()
    const credential = await verifyRegistration(guard.getSessionIdOrFail(), response)
    return db.transaction(async (trx) => {
      const passkey = await storePasskey(trx, user.id, name, credential)
      await recordAudit(trx, selfSource(ctx, user, 'create'), {
        targetType: 'passkey',
        targetId: passkey.id,
        changes: { name: [null, name] },
      })
      return passkey
    })
  }

  /** Removes one of the own passkeys (404 for another's or an unknown id, before any hash). */
  async remove(ctx: HttpContext, id: number, password: string) {
    const owner = ctx.auth.use('jwt').getUserOrFail()
    const passkey = await Passkey.query().where({ id, user_id: owner.id }).first()
    if (!passkey) throw notFound('passkeyNotFound')
    await withCurrentPassword(ctx, password, 'password', (user) =>
      db.transaction(async (trx) => {
        if (!(await removePasskey(trx, user.id, id))) throw notFound('passkeyNotFound')
        await recordAudit(trx, selfSource(ctx, user, 'delete'), {
          targetType: 'passkey',
          targetId: id,
          changes: { name: [passkey.name, null] },
        })
      })
    )
  }
}
