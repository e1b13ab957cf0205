import vine from '@vinejs/vine'
import { idField, optionalText, pageFields } from '#validators/admin/common'

/**
 * GET /api/admin/audit-logs. `actorId`, `tokenId`, `permission`, `targetType`/`targetId` match exactly;
 * `from`/`to` are ISO 8601 instants, `from` inclusive and `to` exclusive.
 */
export const listAuditLogsValidator = vine.create({
  ...pageFields,
  actorId: idField().optional(),
  tokenId: idField().optional(),
  permission: optionalText(100),
  targetType: optionalText(32),
  targetId: optionalText(64),
  outcome: vine.enum(['succeeded', 'refused'] as const).optional(),
  from: vine.date({ formats: ['iso8601'] }).optional(),
  to: vine.date({ formats: ['iso8601'] }).optional(),
})
