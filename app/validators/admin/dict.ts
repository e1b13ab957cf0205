import vine from '@vinejs/vine'
import {
  listValidator,
  nullableLines,
  optionalText,
  plainText,
  sortOrder,
  statusField,
} from '#validators/admin/common'
import { dictItemSort, dictTypeSort } from '#resources/dicts'
import { line } from '#validators/text'
import { writable } from '#validators/writable'

/**
 * Request shapes of /api/admin/dicts (types) and /api/admin/dicts/:code/items. The writable
 * fields are declared here, not beside the shapes: public code reads app/resources/dicts.ts and
 * must not reach admin validators. A type's code is set once (items and clients name the type
 * by it). Labels are shown as text: plain text only.
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

export const listDictTypesValidator = listValidator(dictTypeSort, {
  keyword: optionalText(64),
  status: statusField().optional(),
})

export const createDictTypeValidator = vine.create(dictTypeWrites.create())

export const updateDictTypeValidator = vine.create(dictTypeWrites.update())

export const listDictItemsValidator = listValidator(dictItemSort, {
  status: statusField().optional(),
})

export const createDictItemValidator = vine.create(dictItemWrites.create())

export const updateDictItemValidator = vine.create(dictItemWrites.update())
