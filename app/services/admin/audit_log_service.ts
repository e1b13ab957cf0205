import type { Infer } from '@vinejs/vine/types'
import AuditLog from '#models/audit_log'
import { newestFirst } from '#services/admin/common'
import type { listAuditLogsValidator } from '#validators/admin/audit_log'

/** The audit log, newest first. Written by the services (app/services/audit_log.ts). */
export default class AuditLogService {
  list(filters: Infer<typeof listAuditLogsValidator>) {
    return newestFirst(AuditLog, filters, [
      'actorId',
      'tokenId',
      'permission',
      'targetType',
      'targetId',
      'outcome',
    ])
  }
}
