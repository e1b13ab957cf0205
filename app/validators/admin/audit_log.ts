import vine from '@vinejs/vine'
import {
  exportFields,
  idField,
  optionalText,
  pageFields,
  sortField,
} from '#validators/admin/common'
import { auditLogSort } from '#resources/audit_logs'

/**
 * GET /api/admin/audit-logs and its export. `actorId`, `tokenId`, `permission`,
 * `targetType`/`targetId` match exactly; `from`/`to` are ISO 8601 instants, `from` inclusive and
 * `to` exclusive.
 */
const auditLogFilters = {
  actorId: idField().optional(),
  tokenId: idField().optional(),
  permission: optionalText(100),
  targetType: optionalText(32),
  targetId: optionalText(64),
  outcome: vine.enum(['succeeded', 'refused'] as const).optional(),
  from: vine.date({ formats: ['iso8601'] }).optional(),
  to: vine.date({ formats: ['iso8601'] }).optional(),
  sort: sortField(auditLogSort),
}

export const listAuditLogsValidator = vine.create({ ...pageFields, ...auditLogFilters })
export const exportAuditLogsValidator = vine.create({ ...exportFields, ...auditLogFilters })
