import { BaseTransformer } from '@adonisjs/core/transformers'
import type Param from '#models/param'
import { PARAM_TYPES } from '#models/param'
import { named, s, shape, sortable } from '#openapi/schema'

const param = shape({
  id: s.integer(),
  key: s.string(),
  value: s.string(),
  type: s.enum(PARAM_TYPES),
  isSystem: s.boolean(),
  isPublic: s.boolean(),
  remark: s.nullable(s.string()),
  createdAt: s.dateTime(),
  updatedAt: s.dateTime(),
})
/** Response contract (OpenAPI): the value as stored (text), with its type. */
export const paramSchema = named('Param', param.schema)
export const paramSort = sortable(param, ['id', 'key', 'type', 'createdAt', 'updatedAt'])

export default class ParamTransformer extends BaseTransformer<Param> {
  toObject() {
    return this.pick(this.resource, param.keys)
  }
}
