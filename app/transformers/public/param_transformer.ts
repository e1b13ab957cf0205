import { BaseTransformer } from '@adonisjs/core/transformers'
import { PARAM_TYPES } from '#models/param'
import { named, s } from '#openapi/schema'
import type { PublicParam } from '#resources/params'

export const publicParamSchema = named(
  'PublicParam',
  s.object({ key: s.string(), type: s.enum(PARAM_TYPES), value: {} })
)

export default class PublicParamTransformer extends BaseTransformer<PublicParam> {
  toObject() {
    return { key: this.resource.key, type: this.resource.type, value: this.resource.value }
  }
}
