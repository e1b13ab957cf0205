import type { HttpContext } from '@adonisjs/core/http'
import { pageMeta } from '#providers/api_provider'
import LoginLogService from '#services/admin/login_log_service'
import LoginLogTransformer from '#transformers/admin/login_log_transformer'
import { listLoginLogsValidator } from '#validators/admin/login_log'
import { contract } from '#openapi/contract'
import { loginLogSchema } from '#transformers/admin/login_log_transformer'

const loginLogs = new LoginLogService()

/** /api/admin/login-logs: every login attempt, newest first. */
export default class LoginLogsController {
  static contract = contract({
    index: {
      summary: 'Login log: every attempt and its outcome',
      query: listLoginLogsValidator,
      page: loginLogSchema,
    },
  })

  async index(ctx: HttpContext) {
    const filters = await ctx.request.validateUsing(listLoginLogsValidator)
    const page = await loginLogs.list(filters)
    return ctx.serialize(
      LoginLogTransformer.paginate(page.rows, pageMeta(page.total, page.pageNum, page.pageSize))
    )
  }
}
