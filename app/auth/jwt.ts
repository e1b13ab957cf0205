import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto'
import adminAuthConfig from '#config/admin_auth'
import { MAX_ID } from '#validators/admin/common'
import { SESSION_ID } from '#auth/sessions'
import { named, s } from '#openapi/schema'
import { cache } from '#core/cache'

export type AdminTokenClaims = { userId: number; tokenVersion: number; sessionId: string }

/** The secret as one node:crypto key: jose signs and verifies with it, signedHere() HMACs with it. */
const key = createSecretKey(Buffer.from(adminAuthConfig.jwt.secret, 'utf8'))
const { issuer, audience, ttl } = adminAuthConfig.jwt
/** The protected header of every token signed here. */
const HEADER = { alg: 'HS256', typ: 'JWT' } as const
const HEADER_SEGMENT = `${Buffer.from(JSON.stringify(HEADER)).toString('base64url')}.`

/** Response contract (OpenAPI) of signAdminToken(): login and password change return it. */
export const tokenSchema = named(
  'Token',
  s.object({
    token: s.string(),
    tokenType: s.literal('Bearer'),
    expiresIn: s.integer({ description: 'seconds' }),
  })
)

/**
 * The admin JWT carries only the account id (`sub`), the account's `tokenVersion` and its session
 * id (`jti`, app/auth/sessions.ts); roles, menus and permissions are re-read from the database on
 * every request.
 */
/** jose, loaded with the first token signed or verified (not at boot: readiness needs none). */
let joseLoading: Promise<typeof import('jose')> | undefined
const jose = () => (joseLoading ??= import('jose'))

export async function signAdminToken(userId: number, tokenVersion: number, sessionId: string) {
  const { SignJWT } = await jose()
  const token = await new SignJWT({ tokenVersion })
    .setProtectedHeader(HEADER)
    .setSubject(String(userId))
    .setJti(sessionId)
    .setIssuer(issuer)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime(`${ttl}s`)
    .sign(key)
  return { token, tokenType: 'Bearer' as const, expiresIn: ttl }
}

/**
 * Verifies signature (HS256 only: `none`, RS*, ES* and friends are refused), `exp`, `iat`, `iss`
 * and `aud`, and the shape of `sub`, `jti` and `tokenVersion`. Returns null for any invalid token.
 * Header fields such as kid/jku/jwk are never used to pick a key.
 */
async function verify(token: string): Promise<Verified | null> {
  if (!signedHere(token)) return null
  const { jwtVerify, errors: joseErrors } = await jose()
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      issuer,
      audience,
      typ: 'JWT',
      requiredClaims: ['sub', 'exp', 'iat', 'jti', 'tokenVersion'],
      // A token older than its lifetime (or issued in the future) is refused whatever its `exp`
      // says; 5 s of tolerance for clocks of several instances.
      maxTokenAge: ttl,
      clockTolerance: 5,
    })
    const userId = Number(payload.sub)
    const tokenVersion = payload.tokenVersion
    // Ids are 32-bit serials: anything larger cannot exist (and PostgreSQL would refuse it).
    if (!Number.isSafeInteger(userId) || userId <= 0 || userId > MAX_ID) return null
    if (String(userId) !== payload.sub) return null
    if (
      typeof tokenVersion !== 'number' ||
      !Number.isSafeInteger(tokenVersion) ||
      tokenVersion < 0
    ) {
      return null
    }
    if (typeof payload.jti !== 'string' || !SESSION_ID.test(payload.jti)) return null
    // Usable until the earlier of `exp` and iat + lifetime, with the same 5 s of tolerance.
    const until = (Math.min(payload.exp!, payload.iat! + ttl) + 5) * 1000
    return { claims: Object.freeze({ userId, tokenVersion, sessionId: payload.jti }), until }
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return null
    throw error
  }
}

/**
 * Whether `token` can be one this service signed: the header it signs with, and an HMAC-SHA256 of
 * `header.payload` under the secret. It only refuses; a token that passes still gets all of
 * jose's checks. A flood of bad tokens then costs one HMAC each instead of jose's WebCrypto
 * call and error objects (a refused token cost more than a valid one).
 */
function signedHere(token: string) {
  const dot = token.lastIndexOf('.')
  if (!token.startsWith(HEADER_SEGMENT) || dot <= HEADER_SEGMENT.length) return false
  const expected = createHmac('sha256', key).update(token.slice(0, dot)).digest()
  const given = Buffer.from(token.slice(dot + 1), 'base64url')
  return given.length === expected.length && timingSafeEqual(given, expected)
}

type Verified = { claims: Readonly<AdminTokenClaims>; until: number }
const verified = cache<string, Verified>('verified-tokens', { max: 10_000 })

/**
 * verify() once per token: a token's signature and claims never change, and the HMAC was a third
 * of /me's CPU. Keyed by the whole token text; only valid tokens enter, so the bound is reached
 * only by logins. Its lifetime is checked on every use; revocation (session row, tokenVersion)
 * is still read from the database on every request.
 */
export async function verifyAdminToken(token: string): Promise<AdminTokenClaims | null> {
  const hit = verified.get(token)
  if (hit) {
    if (Date.now() <= hit.until) return hit.claims
    verified.delete(token)
    return null
  }
  const fresh = await verify(token)
  if (!fresh) return null
  verified.set(token, fresh)
  return fresh.claims
}
