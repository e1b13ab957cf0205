import vine from '@vinejs/vine'
import {
  listValidator,
  nullableLines,
  optionalText,
  plainText,
  sortOrderField,
  statusField,
} from '#validators/admin/common'
import { dictItemSort, dictTypeSort } from '#resources/dicts'
import { line } from '#validators/text'

/**
 * Request shapes of /api/admin/dicts (types) and /api/admin/dicts/:code/items. A type's code is
 * set once (items and clients name the type by it). Labels are shown as text: plain text only.
 */
export const DICT_CODE = /^[a-z][a-z0-9_]{0,63}$/
const label = () => line(64).minLength(1).use(plainText())
/** A style hint such as `success` or `text-red`: an identifier, never markup. */
const cssClass = () =>
  line(64)
    .regex(/^[A-Za-z][A-Za-z0-9_-]*$/)
    .nullable()
    .optional()

export const listDictTypesValidator = listValidator(dictTypeSort, {
  keyword: optionalText(64),
  status: statusField().optional(),
})

export const createDictTypeValidator = vine.create({
  code: line(64).regex(DICT_CODE),
  name: label(),
  status: statusField().optional(),
  remark: nullableLines(255),
})

export const updateDictTypeValidator = vine.create({
  name: label().optional(),
  status: statusField().optional(),
  remark: nullableLines(255),
})

export const listDictItemsValidator = listValidator(dictItemSort, {
  status: statusField().optional(),
})

export const createDictItemValidator = vine.create({
  label: label(),
  value: label(),
  sort: sortOrderField().optional(),
  status: statusField().optional(),
  cssClass: cssClass(),
})

export const updateDictItemValidator = vine.create({
  label: label().optional(),
  value: label().optional(),
  sort: sortOrderField().optional(),
  status: statusField().optional(),
  cssClass: cssClass(),
})
