import db from '@adonisjs/lucid/services/db'
import AdminSession from '#models/admin_session'
import UserPolicy from '#policies/user_policy'
import { accountHolding } from '#policies/holdings'
import { notFound } from '#exceptions/api_exception'
import { SESSION_ID, endSession } from '#auth/sessions'
import type { Infer } from '@vinejs/vine/types'
import { type Actor, ordered, paginate } from '#services/admin/common'
import { sessionSort } from '#resources/sessions'
import { audit } from '#services/admin/writes'
import type { listSessionsValidator } from '#validators/admin/session'

/**
 * Online administrators: live sessions (not ended, not expired), and force logout. Ending a
 * session of an account is judged like any act on that account (UserPolicy.forceLogout): nobody
 * throws out an account holding more than they do, and super admins only by super admins.
 */
export default class SessionService {
  async list(filters: Infer<typeof listSessionsValidator>) {
    const query = AdminSession.query()
      .whereNull('ended_at')
      .where('expires_at', '>', Date.now())
      .preload('user')
    if (filters.account) {
      query.whereIn('user_id', db.from('users').select('id').where('account', filters.account))
    }
    const order = ordered(query, filters.sort, sessionSort, [
      { column: 'last_seen_at', order: 'desc' },
      { column: 'id', order: 'asc' },
    ])
    return paginate(order, filters)
  }

  async forceLogout(actor: Actor, id: string) {
    if (!SESSION_ID.test(id)) throw notFound()
    await db.transaction(async (trx) => {
      const session = await AdminSession.query({ client: trx })
        .where('id', id)
        .whereNull('ended_at')
        .where('expires_at', '>', Date.now())
        .first()
      if (!session) throw notFound()
      await actor.bouncer
        .with(UserPolicy)
        .authorize('forceLogout', await accountHolding(trx, session.userId))
      await endSession(id, 'forced', trx)
      await audit(trx, actor, {
        targetType: 'session',
        targetId: id,
        changes: { endReason: [null, 'forced'] },
      })
    })
  }
}
