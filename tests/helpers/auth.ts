import { SignJWT } from 'jose'
import db from '@adonisjs/lucid/services/db'
import hash from '@adonisjs/core/services/hash'
import emitter from '@adonisjs/core/services/emitter'
import env from '#start/env'
import User from '#models/user'
import Role from '#models/role'
import { issueCredential } from '#captcha/challenge_store'

export const ADMIN_ACCOUNT = env.get('ADMIN_ACCOUNT') || 'admin'
export const ADMIN_PASSWORD = env.get('ADMIN_PASSWORD')!
export const TEST_PASSWORD = 'Correct-Horse-9-Battery'

/** One argon2id digest of TEST_PASSWORD shared by the users the tests create (hashing is slow). */
let digest: Promise<string> | undefined
export const testPasswordDigest = () => (digest ??= hash.make(TEST_PASSWORD))

/** Creates an administrator with TEST_PASSWORD, optionally with roles (by code). */
export async function createAdmin(
  account: string,
  options: { status?: 'enabled' | 'disabled'; roles?: string[] } = {}
) {
  const user = await User.create({
    account,
    nickname: account,
    password: await testPasswordDigest(),
    status: options.status ?? 'enabled',
    tokenVersion: 0,
  })
  if (options.roles?.length) {
    const roles = await Role.query().whereIn('code', options.roles)
    await user.related('roles').attach(roles.map((role) => role.id))
  }
  return user
}

/** A valid one-time login credential, as a right captcha drag would earn. */
export const freshCredential = () => issueCredential(120)

/** The stored answer of a challenge: only the server (and this test) can read it. */
export async function challengeAnswer(captchaId: string): Promise<number> {
  const row = await db.from('captcha_challenges').where('id', captchaId).firstOrFail()
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
