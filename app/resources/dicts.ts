import type DictItem from '#models/dict_item'
import { enabledStatus, s, shape, sortable } from '#openapi/schema'
import { nullableLines, plainText, sortOrder, statusField } from '#validators/admin/common'
import { line } from '#validators/text'
import { writable } from '#validators/writable'

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

/*
| What a request writes (app/validators/writable.ts: the create and update validators of
| app/validators/admin/dict.ts and a new record's defaults derive from it). A type's code is set
| once: items and clients name the type by it. Labels are shown as text: plain text only.
*/
export const DICT_CODE = /^[a-z][a-z0-9_]{0,63}$/
const label = () => line(64).minLength(1).use(plainText())

export const dictTypeWrites = writable({
  code: { rule: () => line(64).regex(DICT_CODE), update: false },
  name: { rule: label },
  status: { rule: () => statusField().optional(), default: 'enabled' },
  remark: { rule: () => nullableLines(255), default: null },
})

export const dictItemWrites = writable({
  label: { rule: label },
  value: { rule: label },
  sort: { rule: () => sortOrder().optional(), default: 0 },
  status: { rule: () => statusField().optional(), default: 'enabled' },
  /** A style hint such as `success` or `text-red`: an identifier, never markup. */
  cssClass: {
    rule: () =>
      line(64)
        .regex(/^[A-Za-z][A-Za-z0-9_-]*$/)
        .nullable()
        .optional(),
    default: null,
  },
})
