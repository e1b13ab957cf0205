import vine from '@vinejs/vine'
import { PARAM_TYPES } from '#models/param'
import { listValidator, nullableLines, optionalText } from '#validators/admin/common'
import { paramSort } from '#resources/params'
import { line, lines } from '#validators/text'
import { writable } from '#validators/writable'

/**
 * Request shapes of /api/admin/params. The writable fields are declared here, not beside the
 * shape: public code reads app/resources/params.ts and must not reach admin validators. `value`
 * is text here; whether it fits `type` is the param service's check (it needs the stored type
 * on an update), a 422 on `value`. `isSystem` is the seeder's, never the API's.
 */
export const PARAM_KEY = /^[A-Za-z][A-Za-z0-9_.-]{0,99}$/

export const paramWrites = writable({
  key: { rule: () => line(100).regex(PARAM_KEY) },
  /** May span lines (a JSON value, a text block); other control characters are refused. */
  value: { rule: () => lines(10_000, { trim: false }) },
  type: { rule: () => vine.enum(PARAM_TYPES) },
  isPublic: { rule: () => vine.boolean().optional(), default: false },
  remark: { rule: () => nullableLines(255), default: null },
})

export const listParamsValidator = listValidator(paramSort, {
  keyword: optionalText(100),
  type: vine.enum(PARAM_TYPES).optional(),
})

export const createParamValidator = vine.create(paramWrites.create())

export const updateParamValidator = vine.create(paramWrites.update())
