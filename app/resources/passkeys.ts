import { computed, named, s, shape } from '#openapi/schema'

/** One of the caller's passkeys (never its key or credential id). */
export const ownPasskey = shape({
  id: s.integer(),
  name: s.string(),
  createdAt: computed(s.dateTime()),
  lastUsedAt: computed(s.nullable(s.dateTime())),
})

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
