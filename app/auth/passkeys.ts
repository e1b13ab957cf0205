import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server'
import adminAuthConfig from '#config/admin_auth'
import env from '#start/env'
import { conflict, passkeyInvalid } from '#exceptions/api_exception'
import { forgetRememberedDevices } from '#auth/device_tokens'
import { addressKey } from '#core/address_key'
import { digest, isLive, rowsChanged, spendOnce, spendReturning, sweepExpired } from '#core/secrets'
import Passkey from '#models/passkey'
import type User from '#models/user'

/**
 * Passkeys (WebAuthn through @simplewebauthn/server; docs/front-door.md, "Passkeys"): registration
 * by a signed-in owner, assertions at the second login step and through the ceiling. No HTTP here.
 *
 * - Challenges live server-side (table passkey_challenges), one per binding: the session that
 *   registers, the mfaToken of a second step, or an (account, address) pair at the ceiling. A new
 *   one replaces it; the first response spends it, right or wrong; 5 minutes.
 * - User verification is required (options and checks); attestation is `none` (no vendor lists).
 * - The signature counter is compared after the signature verified: a genuine assertion whose
 *   counter did not move forward (when either is nonzero) comes from a copied authenticator and
 *   is refused (`passkey_counter_regressed`); synced passkeys send 0 and are not compared.
 * - Registration asks for a discoverable credential (residentKey `required`), so an assertion
 *   needs no list of credential ids: the ceiling's options name none, for every account alike.
 * - Sign-in with a passkey alone (no account named): the options store nothing (a signed,
 *   expiring challenge bound to the caller's address key); the challenge is recorded as spent
 *   only once a registered passkey's genuine assertion answered it (signedInOptions below).
 */

/** The library costs ~0.5 s to import (x509 and ASN.1 parsers): loaded at the first passkey use. */
let library: Promise<typeof import('@simplewebauthn/server')> | undefined
const webauthn = () => (library ??= import('@simplewebauthn/server'))

/** COSE algorithms accepted: EdDSA, ES256, RS256 (what authenticators make). */
const ALGORITHMS = [-8, -7, -257]
/** Passkeys per account (each one is an owner's key with its own failure budget). */
export const MAX_PASSKEYS = 10
const TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'])

/**
 * The WebAuthn user handle of an account: 32 bytes derived from APP_KEY and the id, stable (an
 * authenticator keeps one passkey per account and site) and naming nobody.
 */
const userHandle = (userId: number) =>
  new Uint8Array(
    createHmac('sha256', env.get('APP_KEY').release()).update(`passkey-user:${userId}`).digest()
  )

/** A response as the validators pass it on (`clientExtensionResults` may be left out). */
type Loose<T extends { clientExtensionResults: object }> = Omit<T, 'clientExtensionResults'> & {
  clientExtensionResults?: object
}
export type RegistrationInput = Loose<RegistrationResponseJSON>
export type AssertionInput = Loose<AuthenticationResponseJSON>
const complete = <T extends { clientExtensionResults?: object }>(response: T) => ({
  ...response,
  clientExtensionResults: response.clientExtensionResults ?? {},
})

/** What every response is checked against: its challenge, this site, user verification. */
const expected = <T extends { clientExtensionResults?: object }>(
  challenge: string,
  response: T
) => ({
  response: complete(response),
  expectedChallenge: challenge,
  expectedOrigin: adminAuthConfig.passkeys.origin,
  expectedRPID: adminAuthConfig.passkeys.rpId,
  requireUserVerification: true,
})

type Purpose = 'register' | 'mfa' | 'unlock' | 'login'

/** What binds a ceiling challenge: the account as typed (case-insensitive) and the address. */
export const unlockBinding = (account: string, ip: string) => `${account.toLowerCase()}\n${ip}`

/** Stores the live challenge of a binding (replacing one); expired ones go with it. */
async function storeChallenge(purpose: Purpose, binding: string, challenge: string) {
  await sweepExpired('passkey_challenges')
  await db.rawQuery(
    `INSERT INTO passkey_challenges (purpose, binding, challenge, expires_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (purpose, binding)
     DO UPDATE SET challenge = excluded.challenge, expires_at = excluded.expires_at`,
    [purpose, digest(binding), challenge, Date.now() + adminAuthConfig.passkeys.challengeTtl * 1000]
  )
}

/** Spends the live challenge of a binding (one winner: DELETE ... RETURNING); null when none. */
async function spendChallenge(purpose: Purpose, binding: string): Promise<string | null> {
  const row = await spendReturning(
    'DELETE FROM passkey_challenges WHERE purpose = ? AND binding = ? RETURNING challenge, expires_at',
    [purpose, digest(binding)]
  )
  return row && isLive(row.expires_at) ? String(row.challenge) : null
}

/** A refused response: why, in the server log (the caller gets one code for every reason). */
function refused(reason: string, detail?: unknown) {
  const message = detail instanceof Error ? detail.message : undefined
  logger.info({ event: 'passkey.refused', reason, message }, 'passkey response refused')
}

const knownTransports = (transports: string[] = []) =>
  transports.filter((transport) => TRANSPORTS.has(transport))

/** Registration options for the signed-in owner; the challenge is bound to the session. */
export async function registrationOptions(
  user: User,
  sessionId: string
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await Passkey.query().where('user_id', user.id)
  if (existing.length >= MAX_PASSKEYS) throw conflict('passkeyLimit', { max: MAX_PASSKEYS })
  const { rpId, rpName, challengeTtl } = adminAuthConfig.passkeys
  const { generateRegistrationOptions } = await webauthn()
  const options = await generateRegistrationOptions({
    rpName,
    rpID: rpId,
    userName: user.account,
    userID: userHandle(user.id),
    userDisplayName: user.nickname,
    timeout: challengeTtl * 1000,
    attestationType: 'none',
    excludeCredentials: existing.map((passkey) => ({
      id: passkey.credentialId,
      transports: passkey.transports,
    })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    supportedAlgorithmIDs: ALGORITHMS,
  })
  await storeChallenge('register', sessionId, options.challenge)
  return options
}

export type NewCredential = {
  credentialId: string
  publicKey: string
  counter: number
  transports: string[]
}

/** Verifies a registration response against the session's challenge (spent); 400 when refused. */
export async function verifyRegistration(
  sessionId: string,
  response: RegistrationInput
): Promise<NewCredential> {
  const expectedChallenge = await spendChallenge('register', sessionId)
  if (!expectedChallenge) {
    refused('no_challenge')
    throw passkeyInvalid()
  }
  try {
    const { verifyRegistrationResponse } = await webauthn()
    const { verified, registrationInfo } = await verifyRegistrationResponse({
      ...expected(expectedChallenge, response),
      supportedAlgorithmIDs: ALGORITHMS,
    })
    if (!verified || !registrationInfo) throw new Error('not verified')
    const { credential } = registrationInfo
    return {
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: knownTransports(response.response.transports),
    }
  } catch (error) {
    refused('registration', error)
    throw passkeyInvalid()
  }
}

/** `users.passkey_count`, recounted in the write's transaction (the guard reads it). */
async function recount(client: QueryClientContract, userId: number) {
  await client
    .from('users')
    .where('id', userId)
    .update({
      passkey_count: client.raw('(SELECT COUNT(*) FROM passkeys WHERE user_id = ?)', [userId]),
    })
}

/** Stores a verified credential under a name (409 when registered already or at the limit). */
export async function storePasskey(
  trx: QueryClientContract,
  userId: number,
  name: string,
  credential: NewCredential
) {
  const [{ total }] = await trx.from('passkeys').where('user_id', userId).count('* as total')
  if (Number(total) >= MAX_PASSKEYS) throw conflict('passkeyLimit', { max: MAX_PASSKEYS })
  if (await trx.from('passkeys').where('credential_id', credential.credentialId).first()) {
    throw conflict('passkeyRegistered')
  }
  const passkey = await Passkey.create(
    { userId, name, ...credential, createdAt: Date.now(), lastUsedAt: null },
    { client: trx }
  )
  await recount(trx, userId)
  return passkey
}

/** The owner's passkeys, oldest first (GET /api/auth/passkeys). */
export const passkeysOf = (userId: number) =>
  Passkey.query().where('user_id', userId).orderBy('created_at', 'asc').orderBy('id', 'asc')

/**
 * Removes one passkey of the account (false when it has none with that id). When the account is
 * left without any second factor, "remember this device" flags go too (as when TOTP is disabled),
 * so a factor enrolled later is asked for on every device again.
 */
export async function removePasskey(trx: QueryClientContract, userId: number, id: number) {
  const deleted = await trx.from('passkeys').where({ id, user_id: userId }).delete()
  if (rowsChanged(deleted) === 0) return false
  await recount(trx, userId)
  const left = await trx
    .from('users')
    .where('id', userId)
    .select('passkey_count', 'two_factor_confirmed_at')
    .first()
  if (Number(left.passkey_count) === 0 && !left.two_factor_confirmed_at) {
    await forgetRememberedDevices(userId, trx)
  }
  return true
}

/**
 * Removes every passkey of the account (administrator's reset), or those registered since
 * `since` (epoch ms: an undone email change); how many there were.
 */
export async function removePasskeys(trx: QueryClientContract, userId: number, since?: number) {
  const rows = trx.from('passkeys').where('user_id', userId)
  if (since !== undefined) rows.where('created_at', '>=', since)
  const deleted = await rows.delete()
  await recount(trx, userId)
  return rowsChanged(deleted)
}

/** The ids of an account's passkeys (an unlock clears their failure budgets). */
export async function passkeyIdsOf(userId: number): Promise<number[]> {
  const rows = await db.from('passkeys').where('user_id', userId).select('id')
  return rows.map((row) => Number(row.id))
}

async function authenticationOptions(
  purpose: Purpose,
  binding: string,
  allowCredentials: { id: string; transports: string[] }[]
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { rpId, challengeTtl } = adminAuthConfig.passkeys
  const { generateAuthenticationOptions } = await webauthn()
  const options = await generateAuthenticationOptions({
    rpID: rpId,
    allowCredentials,
    userVerification: 'required',
    timeout: challengeTtl * 1000,
  })
  await storeChallenge(purpose, binding, options.challenge)
  return options
}

/**
 * Options for the second login step: the account's passkeys, the challenge bound to the mfaToken
 * (`mfaHash`, its stored digest). 409 when the account has none.
 */
export async function secondStepOptions(userId: number, mfaHash: string) {
  const passkeys = await passkeysOf(userId)
  if (passkeys.length === 0) throw conflict('noPasskey')
  return authenticationOptions(
    'mfa',
    mfaHash,
    passkeys.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports }))
  )
}

/**
 * Options through the ceiling, for an account as typed, bound to it and the caller's address. The
 * account is not looked up: the answer is the same for every name, whether it exists or has a
 * passkey (no credential ids: a discoverable passkey answers for itself).
 */
export const ceilingOptions = (account: string, ip: string) =>
  authenticationOptions('unlock', unlockBinding(account, ip), [])

/** A verified assertion (its passkey), or why it was refused and whose passkey it named. */
export type Assertion =
  | { passkey: Passkey }
  | { refused: 'passkey_failed' | 'passkey_counter_regressed'; userId: number | null }

/**
 * Verifies an assertion against the live challenge of `binding` (spent, right or wrong), for a
 * passkey of `owner` (an account id, or an account name as typed). On success the passkey's
 * counter and last use are written (conditional on the counter read: one winner).
 */
export async function verifyAssertion(
  purpose: 'mfa' | 'unlock',
  binding: string,
  response: AssertionInput,
  owner: { userId: number } | { account: string }
): Promise<Assertion> {
  const expectedChallenge = await spendChallenge(purpose, binding)
  const query = Passkey.query().where('credential_id', response.id)
  if ('userId' in owner) query.where('user_id', owner.userId)
  else
    query.whereHas('user', (user) =>
      user.whereRaw('LOWER(account) = ?', [owner.account.toLowerCase()])
    )
  return checkAssertion(expectedChallenge, response, () => query.first(), {
    userId: 'userId' in owner ? owner.userId : null,
  })
}

/**
 * Sign-in with a passkey alone: a challenge that needs no row. Its bytes are a nonce, its expiry
 * (ms) and an HMAC (APP_KEY) of both with the caller's address key, so only this server made it,
 * for this address, and it dies on time; what an anonymous caller asks for leaves nothing behind.
 */
const NONCE = 16
const SIGNED = NONCE + 8
const challengeMac = (address: string, body: Buffer) =>
  createHmac('sha256', env.get('APP_KEY').release())
    .update(`passkey-login\n${address}\n`)
    .update(body)
    .digest()

/** Options for discoverable credentials (none listed), the challenge signed for this address. */
export async function signInOptions(ip: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { rpId, challengeTtl } = adminAuthConfig.passkeys
  const body = Buffer.alloc(SIGNED)
  randomBytes(NONCE).copy(body)
  body.writeBigUInt64BE(BigInt(Date.now() + challengeTtl * 1000), NONCE)
  const { generateAuthenticationOptions } = await webauthn()
  return generateAuthenticationOptions({
    rpID: rpId,
    allowCredentials: [],
    userVerification: 'required',
    timeout: challengeTtl * 1000,
    challenge: new Uint8Array(Buffer.concat([body, challengeMac(addressKey(ip), body)])),
  })
}

/** The challenge the response answers, when this server signed it for this address and it lives. */
function signedChallengeOf(response: AssertionInput, ip: string) {
  try {
    const client = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString())
    const challenge = String(client?.challenge ?? '')
    const raw = Buffer.from(challenge, 'base64url')
    if (raw.length !== SIGNED + 32) return null
    const body = raw.subarray(0, SIGNED)
    if (!timingSafeEqual(raw.subarray(SIGNED), challengeMac(addressKey(ip), body))) return null
    const expiresAt = Number(body.readBigUInt64BE(NONCE))
    return expiresAt > Date.now() ? { challenge, expiresAt } : null
  } catch {
    return null
  }
}

/**
 * Records a signed challenge as spent until it expires (false when it was already: a replay). Only
 * a genuine assertion of a registered passkey gets here, so the rows are its owners' sign-ins.
 */
async function spendSignedChallenge(challenge: string, expiresAt: number) {
  await sweepExpired('passkey_challenges')
  const recorded = await spendReturning(
    `INSERT INTO passkey_challenges (purpose, binding, challenge, expires_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (purpose, binding) DO NOTHING RETURNING binding`,
    ['login', digest(challenge), 'spent', expiresAt]
  )
  return recorded !== null
}

/**
 * Verifies a usernameless assertion (POST /api/auth/login/passkey without an mfaToken): the signed
 * challenge of this address, the passkey found by the credential id (its user handle must be its
 * account's), user verification, the counter; the challenge spent once the signature verified.
 */
export async function verifySignIn(response: AssertionInput, ip: string): Promise<Assertion> {
  const signed = signedChallengeOf(response, ip)
  return checkAssertion(
    signed?.challenge ?? null,
    response,
    () => Passkey.query().where('credential_id', response.id).first(),
    {
      userId: null,
      spend: () => spendSignedChallenge(signed!.challenge, signed!.expiresAt),
      userHandle: true,
    }
  )
}

/** The checks every assertion goes through, for a challenge already resolved (null: none). */
async function checkAssertion(
  expectedChallenge: string | null,
  response: AssertionInput,
  find: () => Promise<Passkey | null>,
  options: { userId: number | null; spend?: () => Promise<boolean>; userHandle?: boolean }
): Promise<Assertion> {
  const passkey = expectedChallenge ? await find() : null
  const failed = { refused: 'passkey_failed' as const, userId: passkey?.userId ?? options.userId }
  if (!expectedChallenge || !passkey) {
    refused(expectedChallenge ? 'unknown_credential' : 'no_challenge')
    return failed
  }
  const handle = response.response.userHandle
  if (
    options.userHandle &&
    handle !== undefined &&
    handle !== Buffer.from(userHandle(passkey.userId)).toString('base64url')
  ) {
    refused('user_handle')
    return failed
  }
  let counter: number
  try {
    const { verifyAuthenticationResponse } = await webauthn()
    const { verified, authenticationInfo } = await verifyAuthenticationResponse({
      ...expected(expectedChallenge, response),
      // Counter 0 here: the library would compare it before the signature; it is compared below,
      // once the assertion is known to be genuine.
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: 0,
        transports: passkey.transports,
      },
    })
    if (!verified) throw new Error('bad signature')
    counter = authenticationInfo.newCounter
  } catch (error) {
    refused('assertion', error)
    return failed
  }
  // A genuine assertion replayed (an authenticator that always sends counter 0 is not caught below).
  if (options.spend && !(await options.spend())) {
    refused('replayed')
    return failed
  }
  if ((counter > 0 || passkey.counter > 0) && counter <= passkey.counter) {
    logger.warn(
      { event: 'passkey.counter_regressed', passkeyId: passkey.id, userId: passkey.userId },
      'passkey signature counter went back: a copy of the authenticator may exist'
    )
    return { refused: 'passkey_counter_regressed', userId: passkey.userId }
  }
  const moved = await spendOnce(
    db.from('passkeys').where('id', passkey.id).where('counter', passkey.counter),
    { counter, last_used_at: Date.now() }
  )
  if (!moved) {
    refused('concurrent')
    return failed
  }
  return { passkey }
}
