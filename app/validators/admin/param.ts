import vine from '@vinejs/vine'
import { PARAM_TYPES } from '#models/param'
import { listValidator, nullableLines, optionalText } from '#validators/admin/common'
import { paramSort } from '#resources/params'
import { line, lines } from '#validators/text'

/**
 * Request shapes of /api/admin/params. `value` is text here; whether it fits `type` is the param
 * service's check (it needs the stored type on an update), a 422 on `value`. `isSystem` is the
 * seeder's, never the API's.
 */
export const PARAM_KEY = /^[A-Za-z][A-Za-z0-9_.-]{0,99}$/
/** May span lines (a JSON value, a text block); other control characters are refused. */
const value = () => lines(10_000, { trim: false })

export const listParamsValidator = listValidator(paramSort, {
  keyword: optionalText(100),
  type: vine.enum(PARAM_TYPES).optional(),
})

export const createParamValidator = vine.create({
  key: line(100).regex(PARAM_KEY),
  value: value(),
  type: vine.enum(PARAM_TYPES),
  isPublic: vine.boolean().optional(),
  remark: nullableLines(255),
})

export const updateParamValidator = vine.create({
  key: line(100).regex(PARAM_KEY).optional(),
  value: value().optional(),
  type: vine.enum(PARAM_TYPES).optional(),
  isPublic: vine.boolean().optional(),
  remark: nullableLines(255),
})
