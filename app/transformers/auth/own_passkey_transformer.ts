import { BaseTransformer } from '@adonisjs/core/transformers'
import type Passkey from '#models/passkey'
import { named, s } from '#openapi/schema'
import { ownPasskey as passkey } from '#resources/passkeys'

/** Passkey times are stored as epoch milliseconds: computed into ISO 8601. */
const iso = (ms: number) => new Date(ms).toISOString()

/** Response contract (OpenAPI): one of the caller's passkeys (never its key or credential id). */
export const ownPasskeySchema = named('OwnPasskey', passkey.schema)

/** The answer of POST /api/auth/passkeys: the new passkey. */
export const newPasskeySchema = named(
  'NewPasskey',
  s.object({ id: passkey.properties.id, name: s.string(), createdAt: s.dateTime() })
)

export default class OwnPasskeyTransformer extends BaseTransformer<Passkey> {
  toObject() {
    const { lastUsedAt } = this.resource
    return {
      ...this.pick(this.resource, passkey.keys),
      createdAt: iso(this.resource.createdAt),
      lastUsedAt: lastUsedAt === null ? null : iso(lastUsedAt),
    }
  }
}
