import { BaseModel, belongsTo, column } from '@adonisjs/lucid/orm'
import type { BelongsTo } from '@adonisjs/lucid/types/relations'
import User from '#models/user'

const epoch = (value: unknown) => (value === null || value === undefined ? null : Number(value))

/**
 * An API token (app/auth/api_tokens.ts). The token itself is never stored: `tokenHash` is its
 * SHA-256 digest and is never serialized. Times are epoch milliseconds.
 */
export default class ApiToken extends BaseModel {
  static table = 'api_tokens'

  @column({ isPrimary: true })
  declare id: number

  @column()
  declare userId: number

  @column()
  declare name: string

  @column({ serializeAs: null })
  declare tokenHash: string

  @column()
  declare hint: string

  /** Permission codes, stored as a JSON array. */
  @column({
    prepare: (value: string[]) => JSON.stringify(value),
    consume: (value: string) => JSON.parse(value) as string[],
  })
  declare permissions: string[]

  /** The owner's tokenVersion at creation. */
  @column({ serializeAs: null })
  declare tokenVersion: number

  @column({ consume: Number })
  declare createdAt: number

  @column({ consume: Number })
  declare expiresAt: number

  @column({ consume: epoch })
  declare lastUsedAt: number | null

  @column()
  declare lastUsedIp: string | null

  @belongsTo(() => User)
  declare user: BelongsTo<typeof User>
}
