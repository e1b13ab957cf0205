import type { HttpContext } from '@adonisjs/core/http'
import { pageMeta } from '#providers/api_provider'
import AuditLogService from '#services/admin/audit_log_service'
import AuditLogTransformer from '#transformers/admin/audit_log_transformer'
import { listAuditLogsValidator } from '#validators/admin/audit_log'
import { contract } from '#openapi/contract'
import { auditLogSchema } from '#transformers/admin/audit_log_transformer'

const auditLogs = new AuditLogService()

/** /api/admin/audit-logs: every admin write, done or refused, newest first. */
export default class AuditLogsController {
  static contract = contract({
    index: {
      summary: 'Audit log: admin writes and refusals',
      query: listAuditLogsValidator,
      page: auditLogSchema,
    },
  })

  async index(ctx: HttpContext) {
    const filters = await ctx.request.validateUsing(listAuditLogsValidator)
    const page = await auditLogs.list(filters)
    return ctx.serialize(
      AuditLogTransformer.paginate(page.rows, pageMeta(page.total, page.pageNum, page.pageSize))
    )
  }
}
