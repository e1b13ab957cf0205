import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import LoginLogService from '#services/admin/login_log_service'
import LoginLogTransformer from '#transformers/admin/login_log_transformer'
import { exportLoginLogsValidator, listLoginLogsValidator } from '#validators/admin/login_log'
import { contract } from '#openapi/contract'
import { exportOperation, sendExport } from '#services/admin/list_export'
import { loginLogSchema } from '#transformers/admin/login_log_transformer'
import { loginLogCsv } from '#resources/login_logs'

/** /api/admin/login-logs: every login attempt, newest first. */
@inject()
export default class LoginLogsController {
  static contract = contract({
    index: {
      summary: 'Login log: every attempt and its outcome',
      query: listLoginLogsValidator,
      page: loginLogSchema,
    },
    export: exportOperation('the login log', exportLoginLogsValidator),
  })

  constructor(protected loginLogs: LoginLogService) {}

  async index({ request, serialize }: HttpContext) {
    const page = await this.loginLogs.list(await request.validateUsing(listLoginLogsValidator))
    return serialize(LoginLogTransformer.paginate(page.rows, page.meta))
  }

  async export(ctx: HttpContext) {
    const filters = await ctx.request.validateUsing(exportLoginLogsValidator)
    return sendExport(ctx, {
      name: 'login-logs',
      query: this.loginLogs.query(filters),
      filters,
      columns: loginLogCsv,
      toObject: (row) => new LoginLogTransformer(row).toObject(),
    })
  }
}
