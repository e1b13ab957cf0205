import { DateTime } from 'luxon'
import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'
import type { Infer } from '@vinejs/vine/types'
import type User from '#models/user'
import { definedOnly } from '#core/defined_only'
import { type AuditSource, changedFields, recordAudit } from '#services/audit_log'
import { avatarEtag, toAvatarWebp } from '#services/avatar_image'
import type { updateProfileValidator } from '#validators/profile'
import { mailEnabled } from '#services/email/outbox'
import { sendVerificationCode } from '#services/email/email_service'

/** What the audit rows of the own-profile writes name: the account itself, no permission code. */
export const OWN_PROFILE = 'own:profile'

/**
 * The signed-in administrator's own profile (nickname, email) and avatar. Each write runs in one
 * transaction with its audit row (actor = target = the account).
 */
export default class ProfileService {
  private source(ctx: HttpContext, user: User): AuditSource {
    return {
      actorId: user.id,
      actor: user.account,
      permission: OWN_PROFILE,
      requestId: ctx.request.id() ?? null,
      ip: ctx.request.ip(),
    }
  }

  /** A changed address is unverified (the User model); its code is mailed (docs/email.md). */
  async update(ctx: HttpContext, user: User, data: Infer<typeof updateProfileValidator>) {
    const emailChanged = await db.transaction(async (trx) => {
      const before = { ...user.$attributes }
      user.useTransaction(trx)
      user.merge(definedOnly(data))
      await user.save()
      const changes = changedFields(before, user.$attributes)
      if (Object.keys(changes).length) {
        await recordAudit(trx, this.source(ctx, user), {
          targetType: 'user',
          targetId: user.id,
          changes,
        })
      }
      return changes.email !== undefined
    })
    if (emailChanged && mailEnabled()) await sendVerificationCode(user, ctx.logger)
    return user
  }

  /**
   * Re-encodes the upload (app/services/avatar_image.ts; 422 and nothing stored when it is not a
   * usable image) and stores it: the user_avatars row and users.avatar_etag in one transaction.
   */
  async setAvatar(ctx: HttpContext, user: User, upload: Buffer) {
    const webp = await toAvatarWebp(upload)
    const etag = avatarEtag(webp)
    await db.transaction(async (trx) => {
      await trx
        .knexQuery()
        .table('user_avatars')
        .insert({
          user_id: user.id,
          data: webp,
          etag,
          updated_at: DateTime.utc().toFormat(trx.dialect.dateTimeFormat),
        })
        .onConflict('user_id')
        .merge()
      const previous = user.avatarEtag
      user.useTransaction(trx)
      user.avatarEtag = etag
      await user.save()
      await recordAudit(trx, this.source(ctx, user), {
        targetType: 'user',
        targetId: user.id,
        changes: { avatar: [previous, etag] },
      })
    })
    return user
  }

  /** The stored avatar of an account, or null. */
  async avatarOf(userId: number): Promise<{ data: Buffer; etag: string } | null> {
    const row = await db
      .from('user_avatars')
      .select('data', 'etag')
      .where('user_id', userId)
      .first()
    return row ? { data: Buffer.from(row.data), etag: row.etag } : null
  }
}
