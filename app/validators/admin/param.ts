import vine from '@vinejs/vine'
import { PARAM_TYPES } from '#models/param'
import { optionalText, pageFields, sortField } from '#validators/admin/common'
import { paramSort, paramWrites } from '#resources/params'

/** Request shapes of /api/admin/params; the writable fields: app/resources/params.ts. */
export const listParamsValidator = vine.create({
  ...pageFields,
  keyword: optionalText(100),
  type: vine.enum(PARAM_TYPES).optional(),
  sort: sortField(paramSort),
})

export const createParamValidator = vine.create(paramWrites.create())

export const updateParamValidator = vine.create(paramWrites.update())
