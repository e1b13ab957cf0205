import { DateTime } from 'luxon'
import type { HttpContext } from '@adonisjs/core/http'
import db from '@adonisjs/lucid/services/db'
import type { Infer } from '@vinejs/vine/types'
import type User from '#models/user'
import { definedOnly } from '#core/defined_only'
import { OWN_PROFILE, changedFields, ownSource, recordAudit } from '#services/audit_log'
import { clientOf } from '#core/client'
import { avatarEtag, toAvatarWebp } from '#services/avatar_image'
import type { updateProfileValidator } from '#validators/profile'
import { mailEnabled } from '#services/email/outbox'
import { mailUndoLink, sendVerificationCode } from '#services/email/email_service'
import { issueLink } from '#auth/email_tokens'
import { withCurrentPassword } from '#auth/current_password'
import { FieldError } from '#exceptions/api_exception'

/**
 * The signed-in administrator's own profile (nickname, email) and avatar. Each write runs in one
 * transaction with its audit row (actor = target = the account).
 */
export default class ProfileService {
  /**
   * A change of the address needs the current password (withCurrentPassword: per session, one
   * at a time per account; 422 `currentPassword` when missing or wrong, nothing written), so a
   * stolen session alone cannot point the account's mails elsewhere (docs/email.md, "Email
   * change").
   */
  async update(ctx: HttpContext, user: User, data: Infer<typeof updateProfileValidator>) {
    const { currentPassword, ...fields } = data
    if (fields.email === undefined || fields.email === user.email)
      return this.write(ctx, user, fields)
    if (!currentPassword) {
      throw new FieldError('currentPassword', 'currentPasswordForEmail', 'required')
    }
    return withCurrentPassword(ctx, currentPassword, 'currentPassword', (account) =>
      this.write(ctx, account, fields)
    )
  }

  /**
   * A changed address is unverified (the User model); its code is mailed (docs/email.md). The
   * replaced address, when verified, gets an undo link issued in the change's transaction.
   */
  private async write(
    ctx: HttpContext,
    user: User,
    data: Omit<Infer<typeof updateProfileValidator>, 'currentPassword'>
  ) {
    const replaced = user.emailVerified ? user.email : null
    const { emailChanged, undo } = await db.transaction(async (trx) => {
      const before = { ...user.$attributes }
      user.useTransaction(trx)
      user.merge(definedOnly(data))
      await user.save()
      const changes = changedFields(before, user.$attributes)
      if (Object.keys(changes).length) {
        await recordAudit(trx, ownSource(user, clientOf(ctx), OWN_PROFILE), {
          targetType: 'user',
          targetId: user.id,
          changes,
        })
      }
      const changed = changes.email !== undefined
      const undoToken =
        changed && replaced && mailEnabled()
          ? await issueLink(user.id, 'email_undo', { client: trx, email: replaced })
          : null
      return { emailChanged: changed, undo: undoToken }
    })
    if (undo && replaced) mailUndoLink(user, replaced, undo, ctx.logger)
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
      await recordAudit(trx, ownSource(user, clientOf(ctx), OWN_PROFILE), {
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
