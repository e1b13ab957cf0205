import vine from '@vinejs/vine'
import type { SchemaTypes } from '@vinejs/vine/types'
import { PASSWORD_MAX } from '#resources/users'
import { line, token } from '#validators/text'

/**
 * Passkeys (app/auth/passkeys.ts). The WebAuthn responses are checked for shape and size here
 * (what @simplewebauthn/browser's startRegistration / startAuthentication return, as JSON);
 * their content (CBOR, origin, challenge, signature) is the library's to judge: 400
 * E_PASSKEY_INVALID.
 */

/** base64url of at most `max` characters (a credential id is at most 1023 bytes). */
const base64url = (max: number) =>
  token(max)
    .minLength(1)
    .regex(/^[A-Za-z0-9_-]+$/)

const credentialId = () => base64url(1400)
const password = () => vine.string().minLength(1).maxLength(PASSWORD_MAX)
const extensionResults = () => vine.object({}).allowUnknownProperties().optional()
const attachment = () => vine.enum(['platform', 'cross-platform'] as const).optional()

/** A credential as JSON (navigator.credentials.create or get), with its own `response`. */
const credential = <Response extends Record<string, SchemaTypes>>(response: Response) =>
  vine.object({
    id: credentialId(),
    rawId: credentialId(),
    type: vine.enum(['public-key'] as const),
    response: vine.object(response),
    authenticatorAttachment: attachment(),
    clientExtensionResults: extensionResults(),
  })

/** A registration response (navigator.credentials.create, as JSON). */
const registrationResponse = () =>
  credential({
    clientDataJSON: base64url(4096),
    attestationObject: base64url(65_536),
    authenticatorData: base64url(65_536).optional(),
    transports: vine.array(token(32)).maxLength(10).optional(),
    publicKeyAlgorithm: vine.number().withoutDecimals().optional(),
    publicKey: base64url(4096).optional(),
  })

/** An authentication response (navigator.credentials.get, as JSON). */
export const assertionResponse = () =>
  credential({
    clientDataJSON: base64url(4096),
    authenticatorData: base64url(4096),
    signature: base64url(1024),
    userHandle: base64url(128).optional(),
  })

const mfaToken = () => token(128).regex(/^[A-Za-z0-9_-]+$/)

/** POST /api/auth/passkeys/options, DELETE /api/auth/passkeys/:id: the password. */
export const passkeyPasswordValidator = vine.create({ password: password() })

/** POST /api/auth/passkeys: a name for the passkey and the authenticator's response. */
export const registerPasskeyValidator = vine.create({
  name: line(64).minLength(1),
  response: registrationResponse(),
})

/**
 * POST /api/auth/login/passkey/options: an mfaToken (second step), an account and a captcha
 * credential (through the ceiling), or nothing (a sign-in with a passkey alone).
 */
export const passkeyLoginOptionsValidator = vine.create({
  mfaToken: mfaToken().optional(),
  account: line(64).minLength(1).optional(),
  // Missing, like unknown: 400 E_CAPTCHA_TOKEN_INVALID (as at login).
  captchaToken: token(256).optional(),
})

/**
 * POST /api/auth/login/passkey: an assertion, with the mfaToken of the password step (second
 * step) or without (a sign-in with a passkey alone).
 */
export const passkeyLoginValidator = vine.create({
  mfaToken: mfaToken().optional(),
  response: assertionResponse(),
  deviceToken: token(128).optional(),
  /** Skip the second step on this device from now on (until its device token ends). */
  rememberDevice: vine.boolean({ strict: true }).optional(),
})
