import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type AuditLog from '#models/audit_log'
import { ListController, listContract } from '#controllers/admin/crud'
import AuditLogService from '#services/admin/audit_log_service'
import AuditLogTransformer from '#transformers/admin/audit_log_transformer'
import { exportAuditLogsValidator, listAuditLogsValidator } from '#validators/admin/audit_log'
import { contract } from '#openapi/contract'
import { exportOperation, sendExport } from '#services/admin/list_export'
import { auditLogSchema } from '#transformers/admin/audit_log_transformer'
import { auditLogCsv } from '#resources/audit_logs'

/** /api/admin/audit-logs: every admin write, done or refused, newest first. */
@inject()
export default class AuditLogsController extends ListController<AuditLog> {
  static contract = contract({
    ...listContract('Audit log: admin writes and refusals', listAuditLogsValidator, auditLogSchema),
    export: exportOperation('the audit log', exportAuditLogsValidator),
  })

  protected transformer = AuditLogTransformer

  constructor(protected service: AuditLogService) {
    super()
  }

  async export(ctx: HttpContext) {
    const filters = await ctx.request.validateUsing(exportAuditLogsValidator)
    return sendExport(ctx, {
      name: 'audit-logs',
      query: this.service.query(filters),
      filters,
      columns: auditLogCsv,
      toObject: (row) => new AuditLogTransformer(row).toObject(),
    })
  }
}
