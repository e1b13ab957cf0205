import { test } from '@japa/runner'
import adminAuthConfig from '#config/admin_auth'
import { DERIVED_FROM, withAccountFields } from '#models/mixins/account_fields'

/**
 * The users list reads only the columns its answer needs, taking each derived field's from
 * DERIVED_FROM: every getter is listed there with exactly the properties it reads.
 */
class Account extends withAccountFields(class {}) {}

// The mixin's class sits between Account and its base.
const fieldsPrototype = Object.getPrototypeOf(Account.prototype)
const getters = Object.entries(Object.getOwnPropertyDescriptors(fieldsPrototype))
  .filter(([, descriptor]) => descriptor.get)
  .map(([name]) => name)

/** Every property a derived field could read, set (dates as the list's ISO text). */
const FULL: Record<string, unknown> = {
  id: 7,
  email: 'a@example.com',
  emailVerifiedAt: '2026-01-02T03:04:05.000Z',
  twoFactorConfirmedAt: '2026-01-02T03:04:05.000Z',
  previousLoginAt: '2026-01-02T03:04:05.000Z',
  previousLoginIp: '127.0.0.1',
  failedLogins: 1,
  failedBeforeLogin: 2,
  mustChangePassword: false,
  passwordChangedAt: '2026-01-02T03:04:05.000Z',
  createdAt: '2025-01-02T03:04:05.000Z',
  avatarEtag: 'abc',
}

/** The own properties `getter` reads of an account holding `fields`, other getters expanded. */
function readsOf(getter: string, fields: Record<string, unknown>) {
  const reads = new Set<string>()
  const account = Object.assign(new Account(), fields)
  const watched = new Proxy(account, {
    get(target, key, receiver) {
      if (typeof key === 'string' && !getters.includes(key)) reads.add(key)
      return Reflect.get(target, key, receiver)
    },
  })
  void (watched as any)[getter]
  return reads
}

test('each derived field of an account reads exactly the properties DERIVED_FROM lists', ({
  assert,
}) => {
  assert.sameMembers(Object.keys(DERIVED_FROM), getters)
  const before = adminAuthConfig.passwords.maxAgeDays
  try {
    for (const getter of getters) {
      const reads = new Set<string>()
      // Each field empty in turn, so that every branch (`??`, `&&`) is taken once.
      for (const maxAge of [0, 30]) {
        adminAuthConfig.passwords.maxAgeDays = maxAge
        for (const empty of [null, ...Object.keys(FULL)]) {
          const fields = { ...FULL, ...(empty ? { [empty]: null } : {}) }
          for (const key of readsOf(getter, fields)) reads.add(key)
        }
      }
      const declared = new Set<string>(DERIVED_FROM[getter as keyof typeof DERIVED_FROM])
      // A getter read through another (passwordChangeRequired -> passwordExpiresAt) adds its reads.
      assert.sameMembers([...reads], [...declared], getter)
    }
  } finally {
    adminAuthConfig.passwords.maxAgeDays = before
  }
})
