import { BaseTransformer } from '@adonisjs/core/transformers'
import { computed, named, s, shape } from '#openapi/schema'
import type { OwnDevice } from '#auth/device_tokens'

const ownDevice = shape({
  id: s.string(),
  current: computed(s.boolean()),
  createdAt: s.dateTime(),
  lastUsedAt: s.dateTime(),
  expiresAt: s.dateTime(),
  ip: s.nullable(s.string({ description: 'Address of the last sign-in with it' })),
  userAgent: s.nullable(s.string()),
  remembersSecondFactor: s.boolean(),
})
/** Response contract (OpenAPI): one of the caller's remembered devices. */
export const ownDeviceSchema = named('OwnDevice', ownDevice.schema)

/** One of the caller's devices; `current` marks the one this session signed in with. */
export default class OwnDeviceTransformer extends BaseTransformer<
  OwnDevice & { current: boolean }
> {
  toObject() {
    return { ...this.pick(this.resource, ownDevice.keys), current: this.resource.current }
  }
}
