import { BaseModel, column } from '@adonisjs/lucid/orm'
import { epochOrNull, ownedByUser } from '#models/mixins/owned_by_user'

/**
 * A passkey (WebAuthn credential) of an administrator (app/auth/passkeys.ts). `credentialId` and
 * `publicKey` are base64url; `counter` is the last signature counter seen. Times are epoch ms.
 */
export default class Passkey extends ownedByUser(BaseModel) {
  static table = 'passkeys'

  @column({ isPrimary: true })
  declare id: number

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

  @column({ consume: epochOrNull })
  declare lastUsedAt: number | null
}
