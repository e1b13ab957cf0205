import { BaseTransformer } from '@adonisjs/core/transformers'
import { PARAM_TYPES, type ParamType } from '#models/param'
import { named, s } from '#openapi/schema'

/** A public parameter: its key, type and value typed (a number, a boolean, any JSON, a string). */
export type PublicParam = { key: string; type: ParamType; value: unknown }

export const publicParamSchema = named(
  'PublicParam',
  s.object({ key: s.string(), type: s.enum(PARAM_TYPES), value: {} })
)

export default class PublicParamTransformer extends BaseTransformer<PublicParam> {
  toObject() {
    return { key: this.resource.key, type: this.resource.type, value: this.resource.value }
  }
}
