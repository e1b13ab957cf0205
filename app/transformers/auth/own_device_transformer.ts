import { BaseTransformer } from '@adonisjs/core/transformers'
import { named } from '#openapi/schema'
import { ownDevice } from '#resources/devices'
import type { OwnDevice } from '#auth/device_tokens'

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
