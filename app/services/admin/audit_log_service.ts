import type { Infer } from '@vinejs/vine/types'
import AuditLog from '#models/audit_log'
import { logQuery, paginate } from '#services/admin/common'
import { auditLogSort } from '#resources/audit_logs'
import type { listAuditLogsValidator } from '#validators/admin/audit_log'

type Filters = Omit<Infer<typeof listAuditLogsValidator>, 'pageNum' | 'pageSize'>

/** The audit log, newest first. Written by the services (app/services/audit_log.ts). */
export default class AuditLogService {
  /** The list's query, also its CSV export's. */
  query(filters: Filters) {
    return logQuery(
      AuditLog,
      filters,
      ['actorId', 'tokenId', 'permission', 'targetType', 'targetId', 'outcome'],
      auditLogSort
    )
  }

  list(filters: Infer<typeof listAuditLogsValidator>) {
    return paginate(this.query(filters), filters)
  }
}
