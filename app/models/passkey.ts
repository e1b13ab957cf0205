import { BaseModel, belongsTo, column } from '@adonisjs/lucid/orm'
import type { BelongsTo } from '@adonisjs/lucid/types/relations'
import User from '#models/user'

const epoch = (value: unknown) => (value === null || value === undefined ? null : Number(value))

/**
 * A passkey (WebAuthn credential) of an administrator (app/auth/passkeys.ts). `credentialId` and
 * `publicKey` are base64url; `counter` is the last signature counter seen. Times are epoch ms.
 */
export default class Passkey extends BaseModel {
  static table = 'passkeys'

  @column({ isPrimary: true })
  declare id: number

  @column()
  declare userId: number

  @column({ serializeAs: null })
  declare credentialId: string

  @column({ serializeAs: null })
  declare publicKey: string

  /** bigint: node-postgres returns it as a string. */
  @column({ serializeAs: null, consume: Number })
  declare counter: number

  /** The browser's transport hints (`internal`, `hybrid`, `usb` ...), a JSON array. */
  @column({
    serializeAs: null,
    prepare: (value: string[]) => JSON.stringify(value),
    consume: (value: string) => JSON.parse(value) as string[],
  })
  declare transports: string[]

  @column()
  declare name: string

  @column({ consume: Number })
  declare createdAt: number

  @column({ consume: epoch })
  declare lastUsedAt: number | null

  @belongsTo(() => User)
  declare user: BelongsTo<typeof User>
}
