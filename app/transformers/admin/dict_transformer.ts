import { BaseTransformer } from '@adonisjs/core/transformers'
import type DictType from '#models/dict_type'
import type DictItem from '#models/dict_item'
import { named } from '#openapi/schema'
import { dictItem, dictType } from '#resources/dicts'

export const dictTypeSchema = named('DictType', dictType.schema)
export const dictItemSchema = named('DictItem', dictItem.schema)

export default class DictTypeTransformer extends BaseTransformer<DictType> {
  toObject() {
    return this.pick(this.resource, dictType.keys)
  }
}

export class DictItemTransformer extends BaseTransformer<DictItem> {
  toObject() {
    return this.pick(this.resource, dictItem.keys)
  }
}
