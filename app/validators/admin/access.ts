import vine from '@vinejs/vine'
import { exportFields, pageFields } from '#validators/admin/common'

/** GET /api/admin/access/codes/:code: a page of the holders. */
export const accessHoldersValidator = vine.create({ ...pageFields })

/**
 * GET /api/admin/access/changes: ISO 8601 instants, `from` inclusive, `to` exclusive; both
 * required, the period bounded by the service (MAX_CHANGES_DAYS).
 */
export const accessChangesValidator = vine.create({
  ...pageFields,
  from: vine.date({ formats: ['iso8601'] }),
  to: vine.date({ formats: ['iso8601'] }),
})

/** GET /api/admin/access/export: CSV only. */
export const accessExportValidator = vine.create({ ...exportFields })
