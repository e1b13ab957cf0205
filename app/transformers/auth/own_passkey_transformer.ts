import { BaseTransformer } from '@adonisjs/core/transformers'
import type Passkey from '#models/passkey'
import { computed, named, s, shape } from '#openapi/schema'

/** Passkey times are stored as epoch milliseconds: computed into ISO 8601. */
const iso = (ms: number) => new Date(ms).toISOString()

const passkey = shape({
  id: s.integer(),
  name: s.string(),
  createdAt: computed(s.dateTime()),
  lastUsedAt: computed(s.nullable(s.dateTime())),
})
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

/*
| The WebAuthn options, as @simplewebauthn/server makes them (PublicKeyCredentialCreationOptionsJSON,
| PublicKeyCredentialRequestOptionsJSON): hand them to @simplewebauthn/browser's startRegistration /
| startAuthentication as `optionsJSON`. Binary values are base64url.
*/
const credentialDescriptor = s.object(
  {
    id: s.string({ description: 'credential id, base64url' }),
    type: s.literal('public-key'),
    transports: s.array(s.string()),
  },
  ['transports']
)
const userVerification = s.enum(['required', 'preferred', 'discouraged'])

export const registrationOptionsSchema = named(
  'PasskeyRegistrationOptions',
  s.object({
    challenge: s.string({ description: 'base64url; valid 5 minutes, for this session only' }),
    rp: s.object({ name: s.string(), id: s.string() }),
    user: s.object({
      id: s.string({ description: 'the WebAuthn user handle, base64url' }),
      name: s.string(),
      displayName: s.string(),
    }),
    pubKeyCredParams: s.array(s.object({ alg: s.integer(), type: s.literal('public-key') })),
    timeout: s.integer({ description: 'milliseconds' }),
    attestation: s.enum(['none', 'direct', 'enterprise']),
    excludeCredentials: s.array(credentialDescriptor),
    authenticatorSelection: s.object(
      {
        authenticatorAttachment: s.enum(['platform', 'cross-platform']),
        residentKey: s.enum(['required', 'preferred', 'discouraged']),
        requireResidentKey: s.boolean(),
        userVerification,
      },
      ['authenticatorAttachment']
    ),
    extensions: s.record(),
    hints: s.array(s.string()),
  })
)

export const authenticationOptionsSchema = named(
  'PasskeyAuthenticationOptions',
  s.object({
    rpId: s.string(),
    challenge: s.string({ description: 'base64url; valid 5 minutes, single use' }),
    allowCredentials: s.array(credentialDescriptor),
    timeout: s.integer({ description: 'milliseconds' }),
    userVerification,
  })
)
