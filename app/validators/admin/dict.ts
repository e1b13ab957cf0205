import vine from '@vinejs/vine'
import { optionalText, pageFields, sortField, statusField } from '#validators/admin/common'
import { dictItemSort, dictItemWrites, dictTypeSort, dictTypeWrites } from '#resources/dicts'

/**
 * Request shapes of /api/admin/dicts (types) and /api/admin/dicts/:code/items; the writable
 * fields are declared beside the shapes (app/resources/dicts.ts).
 */
export const listDictTypesValidator = vine.create({
  ...pageFields,
  keyword: optionalText(64),
  status: statusField().optional(),
  sort: sortField(dictTypeSort),
})

export const createDictTypeValidator = vine.create(dictTypeWrites.create())

export const updateDictTypeValidator = vine.create(dictTypeWrites.update())

export const listDictItemsValidator = vine.create({
  ...pageFields,
  status: statusField().optional(),
  sort: sortField(dictItemSort),
})

export const createDictItemValidator = vine.create(dictItemWrites.create())

export const updateDictItemValidator = vine.create(dictItemWrites.update())
