import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import AuditLogService from '#services/admin/audit_log_service'
import AuditLogTransformer from '#transformers/admin/audit_log_transformer'
import { exportAuditLogsValidator, listAuditLogsValidator } from '#validators/admin/audit_log'
import { contract } from '#openapi/contract'
import { exportOperation, sendExport } from '#services/admin/list_export'
import { auditLogSchema } from '#transformers/admin/audit_log_transformer'
import { auditLogCsv } from '#resources/audit_logs'

/** /api/admin/audit-logs: every admin write, done or refused, newest first. */
@inject()
export default class AuditLogsController {
  static contract = contract({
    index: {
      summary: 'Audit log: admin writes and refusals',
      query: listAuditLogsValidator,
      page: auditLogSchema,
    },
    export: exportOperation('the audit log', exportAuditLogsValidator),
  })

  constructor(protected auditLogs: AuditLogService) {}

  async index({ request, serialize }: HttpContext) {
    const page = await this.auditLogs.list(await request.validateUsing(listAuditLogsValidator))
    return serialize(AuditLogTransformer.paginate(page.rows, page.meta))
  }

  async export(ctx: HttpContext) {
    const filters = await ctx.request.validateUsing(exportAuditLogsValidator)
    return sendExport(ctx, {
      name: 'audit-logs',
      query: this.auditLogs.query(filters),
      filters,
      columns: auditLogCsv,
      toObject: (row) => new AuditLogTransformer(row).toObject(),
    })
  }
}
