import { BaseModel, column } from '@adonisjs/lucid/orm'
import { epochOrNull, ownedByUser } from '#models/mixins/owned_by_user'

/**
 * An API token (app/auth/api_tokens.ts). The token itself is never stored: `tokenHash` is its
 * SHA-256 digest and is never serialized. Times are epoch milliseconds.
 */
export default class ApiToken extends ownedByUser(BaseModel) {
  static table = 'api_tokens'

  @column({ isPrimary: true })
  declare id: number

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
  declare expiresAt: number

  @column({ consume: epochOrNull })
  declare lastUsedAt: number | null

  @column()
  declare lastUsedIp: string | null
}
