import { type KeyObject, createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto'
import { isoCBOR } from '@simplewebauthn/server/helpers'
import adminAuthConfig from '#config/admin_auth'

/**
 * A software WebAuthn authenticator, as a browser and a platform authenticator would answer
 * (tests of app/auth/passkeys.ts): an ES256 (P-256) key pair from node:crypto, `none`
 * attestation, CBOR through @simplewebauthn/server's own encoder (isoCBOR), authenticator data
 * built by hand (W3C WebAuthn Level 3, 6.1): rpIdHash (32) | flags (1) | signCount (4, big-endian)
 * | attested credential data (AAGUID 16 | id length 2 | id | COSE key) when registering. Every
 * field a test wants wrong can be overridden: origin, RP ID, challenge, flags, counter, type.
 */

const FLAG_UP = 0x01
const FLAG_UV = 0x04
const FLAG_AT = 0x40

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest()

type Options = { challenge: string; rpId?: string; rp?: { id: string }; user?: { id: string } }
export type Overrides = {
  origin?: string
  rpId?: string
  challenge?: string
  /** User verification (the UV flag); default true. */
  uv?: boolean
  /** The signature counter to send (default: one more than the last one sent). */
  counter?: number
  /** clientDataJSON `type` (webauthn.create / webauthn.get). */
  type?: string
}

export class SoftAuthenticator {
  readonly credentialId = randomBytes(32)
  readonly #privateKey: KeyObject
  readonly #publicKey: KeyObject
  /** The last signature counter sent. */
  counter = 0
  /** The user handle of the registration options (a resident key keeps it). */
  userHandle?: string

  constructor() {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    this.#privateKey = privateKey
    this.#publicKey = publicKey
  }

  get id() {
    return b64url(this.credentialId)
  }

  /** The public key as COSE_Key (RFC 9053): kty EC2, alg ES256, crv P-256, x, y. */
  cosePublicKey() {
    const jwk = this.#publicKey.export({ format: 'jwk' })
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
        [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
      ])
    )
  }

  #authenticatorData(rpId: string, flags: number, counter: number, attested?: Uint8Array) {
    const count = Buffer.alloc(4)
    count.writeUInt32BE(counter)
    return Buffer.concat([
      sha256(rpId),
      Buffer.from([flags]),
      count,
      ...(attested ? [attested] : []),
    ])
  }

  #clientData(type: string, challenge: string, origin: string) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))
  }

  #settings(options: Options, overrides: Overrides, type: string) {
    const { rpId, origin } = adminAuthConfig.passkeys
    return {
      rpId: overrides.rpId ?? rpId,
      origin: overrides.origin ?? origin,
      challenge: overrides.challenge ?? options.challenge,
      flags: FLAG_UP | (overrides.uv === false ? 0 : FLAG_UV),
      type: overrides.type ?? type,
    }
  }

  /** The answer of navigator.credentials.create to registration options, as JSON. */
  register(options: Options, overrides: Overrides = {}) {
    const set = this.#settings(options, overrides, 'webauthn.create')
    this.userHandle = options.user?.id
    const idLength = Buffer.alloc(2)
    idLength.writeUInt16BE(this.credentialId.length)
    const attested = Buffer.concat([
      Buffer.alloc(16), // AAGUID: none
      idLength,
      this.credentialId,
      this.cosePublicKey(),
    ])
    this.counter = overrides.counter ?? 0
    const authData = this.#authenticatorData(set.rpId, set.flags | FLAG_AT, this.counter, attested)
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ])
    )
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(this.#clientData(set.type, set.challenge, set.origin)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    }
  }

  /**
   * The answer of navigator.credentials.get to authentication options, as JSON: the signature
   * (ECDSA P-256 SHA-256, DER) over authenticatorData | SHA-256(clientDataJSON).
   */
  assert(options: Options, overrides: Overrides = {}) {
    const set = this.#settings(options, overrides, 'webauthn.get')
    this.counter = overrides.counter ?? this.counter + 1
    const authData = this.#authenticatorData(set.rpId, set.flags, this.counter)
    const clientData = this.#clientData(set.type, set.challenge, set.origin)
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientData)]),
      this.#privateKey
    )
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    }
  }
}
