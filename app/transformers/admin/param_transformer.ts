import { BaseTransformer } from '@adonisjs/core/transformers'
import type Param from '#models/param'
import { named } from '#openapi/schema'
import { param } from '#resources/params'

/** Response contract (OpenAPI): the value as stored (text), with its type. */
export const paramSchema = named('Param', param.schema)

export default class ParamTransformer extends BaseTransformer<Param> {
  toObject() {
    return this.pick(this.resource, param.keys)
  }
}
