import { DateTime } from 'luxon'
import { BaseModel, beforeSave, column, manyToMany } from '@adonisjs/lucid/orm'
import { withTimestamps } from '#models/mixins/with_timestamps'
import { withAccountFields } from '#models/mixins/account_fields'
import type { ManyToMany } from '@adonisjs/lucid/types/relations'
import Role from '#models/role'

export type UserStatus = 'enabled' | 'disabled'

/**
 * Administrator account. The password column holds an argon2id digest; it and tokenVersion are
 * never serialized (transformers pick allowed fields, serializeAs: null is the second fence).
 * The derived fields (emailVerified, passwordChangeRequired, avatarUrl...) are the getters of
 * app/models/mixins/account_fields.ts.
 */
export default class User extends withAccountFields(withTimestamps(BaseModel)) {
  @column({ isPrimary: true })
  declare id: number

  @column()
  declare account: string

  @column()
  declare nickname: string

  @column()
  declare email: string | null

  /** When the owner proved the address (docs/email.md); cleared by any change of `email`. */
  @column.dateTime({ serializeAs: null })
  declare emailVerifiedAt: DateTime | null

  @column({ serializeAs: null })
  declare password: string

  @column()
  declare status: UserStatus

  /** Its department (depts), which data scopes are measured on; null: none (seen by `all` only). */
  @column()
  declare deptId: number | null

  @column({ serializeAs: null })
  declare tokenVersion: number

  @column.dateTime()
  declare lastLoginAt: DateTime | null

  @column({ serializeAs: null })
  declare lastLoginIp: string | null

  /** The sign-in before the last one, and the failed password checks between them (for /me). */
  @column.dateTime({ serializeAs: null })
  declare previousLoginAt: DateTime | null

  @column({ serializeAs: null })
  declare previousLoginIp: string | null

  /** Failed password checks since the last sign-in (reset, and kept in failedBeforeLogin, by it). */
  @column({ serializeAs: null })
  declare failedLogins: number

  @column({ serializeAs: null })
  declare failedBeforeLogin: number

  /** Set when the second factor was confirmed (app/auth/two_factor.ts); null: none, or pending. */
  @column.dateTime()
  declare twoFactorConfirmedAt: DateTime | null

  /** How many passkeys the account has (app/auth/passkeys.ts keeps it in each passkey write). */
  @column({ serializeAs: null, consume: (value) => Number(value ?? 0) })
  declare passkeyCount: number

  /** Set when an administrator, a command or the seeder chose the password (see getter below). */
  @column({
    columnName: 'password_change_required',
    serializeAs: null,
    consume: (value) => Boolean(value),
  })
  declare mustChangePassword: boolean

  @column.dateTime({ serializeAs: null })
  declare passwordChangedAt: DateTime | null

  /** ETag of the own avatar (table user_avatars), null without one. */
  @column({ serializeAs: null })
  declare avatarEtag: string | null

  @manyToMany(() => Role, { pivotTable: 'user_roles', pivotTimestamps: false })
  declare roles: ManyToMany<typeof Role>

  get isEnabled() {
    return this.status === 'enabled'
  }

  /**
   * A changed address is unverified until its owner enters the code mailed to it (unless the
   * write sets the verification itself: an undone change restores a proven address).
   */
  @beforeSave()
  static forgetVerification(user: User) {
    if (user.$dirty.email === undefined || !user.$isPersisted) return
    if (user.$dirty.emailVerifiedAt === undefined) user.emailVerifiedAt = null
  }

  /** The second factors the account has, as the login's `methods` names them. */
  get secondFactors(): ('totp' | 'passkey')[] {
    return [
      ...(this.twoFactorEnabled ? (['totp'] as const) : []),
      ...(this.passkeyCount > 0 ? (['passkey'] as const) : []),
    ]
  }

  /** A confirmed TOTP secret or a passkey: the login asks for it, AUTH_REQUIRE_2FA is met. */
  get hasSecondFactor() {
    return this.twoFactorEnabled || this.passkeyCount > 0
  }
}
