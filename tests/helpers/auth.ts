import { SignJWT } from 'jose'
import type { ApiClient } from '@japa/api-client'
import db from '@adonisjs/lucid/services/db'
import emitter from '@adonisjs/core/services/emitter'
import env from '#start/env'
import Role from '#models/role'
import { issueCredential } from '#captcha/challenge_store'
import { UserFactory } from '#database/factories/user_factory'
import { signAdminToken } from '#auth/jwt'
import { createSession } from '#auth/sessions'
import { TAKE_ANSWER_SQL } from '#tests/helpers/captcha'

/**
 * The test fixtures' vocabulary. Accounts: `userWithPermissions(codes)` (an administrator holding
 * exactly these permission codes, through one role), `superAdminUser()`, and `createAdmin` below
 * for a named account; all share TEST_PASSWORD. Assertions: tests/helpers/assertions.ts.
 */
import { TEST_PASSWORD } from '#database/factories/user_factory'
export {
  TEST_PASSWORD,
  UserFactory,
  userWithPermissions,
  superAdminUser,
} from '#database/factories/user_factory'

export const ADMIN_ACCOUNT = env.get('ADMIN_ACCOUNT') || 'admin'
export const ADMIN_PASSWORD = env.get('ADMIN_PASSWORD')!

/** A named administrator (password TEST_PASSWORD), optionally with existing roles by code. */
export async function createAdmin(
  account: string,
  options: { status?: 'enabled' | 'disabled'; roles?: string[] } = {}
) {
  const user = await UserFactory.merge({
    account,
    nickname: account,
    status: options.status ?? 'enabled',
  }).create()
  if (options.roles?.length) {
    const roles = await Role.query().whereIn('code', options.roles)
    await user.related('roles').attach(roles.map((role) => role.id))
  }
  return user
}

/**
 * A valid one-time login credential, as a right captcha drag would earn, bound to the client
 * address (the Japa client connects from 127.0.0.1).
 */
export const freshCredential = (clientIp = '127.0.0.1') => issueCredential(120, clientIp)

/** POST /api/auth/login with a fresh credential (as if the captcha had just been solved). */
export async function loginWith(client: ApiClient, account: string, password = TEST_PASSWORD) {
  const captchaToken = await freshCredential()
  return client.post('/api/auth/login').json({ account, password, captchaToken })
}

/** The stored answer of a challenge: only the server (and this test) can read it. */
export async function challengeAnswer(captchaId: string): Promise<number> {
  const result = await db.rawQuery(TAKE_ANSWER_SQL.replace('$1', '?'), [captchaId])
  const [row] = Array.isArray(result) ? result : result.rows
  return Number(row.answer_x)
}

/** Signs arbitrary claims/headers with a key, for attacks on the guard. */
export async function forgeToken(
  claims: Record<string, unknown>,
  options: { secret?: string; header?: Record<string, unknown> } = {}
) {
  const key = new TextEncoder().encode(options.secret ?? env.get('JWT_SECRET'))
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', ...options.header } as any)
    .sign(key)
}

/** Counts the SQL queries run while `work` runs (the connection emits db:query in tests). */
export async function countQueries<T>(work: () => Promise<T>) {
  const queries: string[] = []
  const listener = (query: { sql: string }) => queries.push(query.sql)
  emitter.on('db:query', listener)
  try {
    const result = await work()
    return { result, queries }
  } finally {
    emitter.off('db:query', listener)
  }
}

/**
 * What a login hands out, without the captcha flow: a real session row and a JWT naming it.
 * The account must exist (the session references it).
 */
export async function sessionToken(userId: number, tokenVersion = 0) {
  const sessionId = await createSession(userId, { ip: '127.0.0.1', userAgent: 'japa' })
  return { ...(await signAdminToken(userId, tokenVersion, sessionId)), sessionId }
}
