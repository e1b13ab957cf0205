import type DictItem from '#models/dict_item'
import { enabledStatus, s, shape, sortable } from '#openapi/schema'

export const dictType = shape({
  id: s.integer(),
  code: s.string(),
  name: s.string(),
  status: enabledStatus(),
  remark: s.nullable(s.string()),
  createdAt: s.dateTime(),
  updatedAt: s.dateTime(),
})
export const dictTypeSort = sortable(dictType, ['id', 'code', 'name', 'status', 'createdAt'])

export const dictItem = shape({
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
export const dictItemSort = sortable(dictItem, ['id', 'label', 'value', 'sort', 'status'])

/** A dictionary as every signed-in administrator reads it: its enabled items, in order. */
export type DictAnswer = { code: string; name: string; items: DictItem[] }
export const dictOption = shape({
  label: s.string(),
  value: s.string(),
  sort: s.integer(),
  cssClass: s.nullable(s.string()),
})
