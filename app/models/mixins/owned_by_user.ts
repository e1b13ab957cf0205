import { type BaseModel, belongsTo, column } from '@adonisjs/lucid/orm'
import type { BelongsTo } from '@adonisjs/lucid/types/relations'
import type { NormalizeConstructor } from '@adonisjs/core/types/helpers'
import User from '#models/user'

/** An epoch-milliseconds column that may be empty (bigint: node-postgres returns a string). */
export const epochOrNull = (value: unknown) =>
  value === null || value === undefined ? null : Number(value)

/**
 * What an administrator's session, API token or passkey holds of its owner: the account, and
 * when it was made, in epoch milliseconds (the auth tables keep times as numbers).
 */
export function ownedByUser<Model extends NormalizeConstructor<typeof BaseModel>>(
  superclass: Model
) {
  class OwnedByUser extends superclass {
    @column()
    declare userId: number

    @column({ consume: Number })
    declare createdAt: number

    @belongsTo(() => User)
    declare user: BelongsTo<typeof User>
  }
  return OwnedByUser
}
