import { inject } from '@adonisjs/core'
import type AuditLog from '#models/audit_log'
import { LogController, listContract } from '#controllers/admin/crud'
import AuditLogService from '#services/admin/audit_log_service'
import AuditLogTransformer from '#transformers/admin/audit_log_transformer'
import { exportAuditLogsValidator, listAuditLogsValidator } from '#validators/admin/audit_log'
import { contract } from '#openapi/contract'
import { exportOperation } from '#services/admin/list_export'
import { auditLogSchema } from '#transformers/admin/audit_log_transformer'
import { auditLogCsv } from '#resources/audit_logs'

/** /api/admin/audit-logs: every admin write, done or refused, newest first. */
@inject()
export default class AuditLogsController extends LogController<AuditLog> {
  static contract = contract({
    ...listContract('Audit log: admin writes and refusals', listAuditLogsValidator, auditLogSchema),
    export: exportOperation('the audit log', exportAuditLogsValidator),
  })

  protected transformer = AuditLogTransformer
  protected csv = { name: 'audit-logs', columns: auditLogCsv }

  constructor(protected service: AuditLogService) {
    super()
  }
}
