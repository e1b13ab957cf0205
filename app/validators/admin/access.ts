import vine from '@vinejs/vine'
import { exportFields, listValidator } from '#validators/admin/common'
import { accessChangeSort, accessHolderSort } from '#resources/access'

/** GET /api/admin/access/codes/:code: a page of the holders. */
export const accessHoldersValidator = listValidator(accessHolderSort, {})

/**
 * GET /api/admin/access/changes: ISO 8601 instants, `from` inclusive, `to` exclusive (by default
 * the last 30 days up to now); the period is bounded by the service (MAX_CHANGES_DAYS).
 */
export const accessChangesValidator = listValidator(accessChangeSort, {
  from: vine.date({ formats: ['iso8601'] }).optional(),
  to: vine.date({ formats: ['iso8601'] }).optional(),
})

/** GET /api/admin/access/export: the lists' export formats. */
export const accessExportValidator = vine.create(exportFields)
