import { DateTime } from 'luxon'
import { BaseModel, column, manyToMany } from '@adonisjs/lucid/orm'
import { withTimestamps } from '#models/mixins/with_timestamps'
import type { ManyToMany } from '@adonisjs/lucid/types/relations'
import Role from '#models/role'

export type UserStatus = 'enabled' | 'disabled'

/**
 * Administrator account. The password column holds an argon2id digest; it and tokenVersion are
 * never serialized (transformers pick allowed fields, serializeAs: null is the second fence).
 */
export default class User extends withTimestamps(BaseModel) {
  @column({ isPrimary: true })
  declare id: number

  @column()
  declare account: string

  @column()
  declare nickname: string

  @column()
  declare email: string | null

  @column({ serializeAs: null })
  declare password: string

  @column()
  declare status: UserStatus

  @column({ serializeAs: null })
  declare tokenVersion: number

  @column.dateTime()
  declare lastLoginAt: DateTime | null

  /** Set when the second factor was confirmed (app/auth/two_factor.ts); null: none, or pending. */
  @column.dateTime()
  declare twoFactorConfirmedAt: DateTime | null

  @manyToMany(() => Role, { pivotTable: 'user_roles', pivotTimestamps: false })
  declare roles: ManyToMany<typeof Role>

  get isEnabled() {
    return this.status === 'enabled'
  }

  get twoFactorEnabled() {
    return Boolean(this.twoFactorConfirmedAt)
  }
}
