import { computed, s, shape } from '#openapi/schema'

/** One of the caller's remembered devices; `current` marks the one this session signed in with. */
export const ownDevice = shape({
  id: s.string(),
  current: computed(s.boolean()),
  createdAt: s.dateTime(),
  lastUsedAt: s.dateTime(),
  expiresAt: s.dateTime(),
  ip: s.nullable(s.string({ description: 'Address of the last sign-in with it' })),
  userAgent: s.nullable(s.string()),
  remembersSecondFactor: s.boolean(),
})
