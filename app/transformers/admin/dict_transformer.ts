import { BaseTransformer } from '@adonisjs/core/transformers'
import type DictType from '#models/dict_type'
import type DictItem from '#models/dict_item'
import { enabledStatus, named, s, shape, sortable } from '#openapi/schema'

const dictType = shape({
  id: s.integer(),
  code: s.string(),
  name: s.string(),
  status: enabledStatus(),
  remark: s.nullable(s.string()),
  createdAt: s.dateTime(),
  updatedAt: s.dateTime(),
})
export const dictTypeSchema = named('DictType', dictType.schema)
export const dictTypeSort = sortable(dictType, ['id', 'code', 'name', 'status', 'createdAt'])

const dictItem = shape({
  id: s.integer(),
  typeCode: s.string(),
  label: s.string(),
  value: s.string(),
  sort: s.integer(),
  status: enabledStatus(),
  cssClass: s.nullable(s.string()),
  createdAt: s.dateTime(),
  updatedAt: s.dateTime(),
})
export const dictItemSchema = named('DictItem', dictItem.schema)
export const dictItemSort = sortable(dictItem, ['id', 'label', 'value', 'sort', 'status'])

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
