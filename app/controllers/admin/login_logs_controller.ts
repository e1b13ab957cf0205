import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import LoginLogService from '#services/admin/login_log_service'
import LoginLogTransformer from '#transformers/admin/login_log_transformer'
import { listLoginLogsValidator } from '#validators/admin/login_log'
import { contract } from '#openapi/contract'
import { loginLogSchema } from '#transformers/admin/login_log_transformer'

/** /api/admin/login-logs: every login attempt, newest first. */
@inject()
export default class LoginLogsController {
  static contract = contract({
    index: {
      summary: 'Login log: every attempt and its outcome',
      query: listLoginLogsValidator,
      page: loginLogSchema,
    },
  })

  constructor(protected loginLogs: LoginLogService) {}

  async index({ request, serialize }: HttpContext) {
    const page = await this.loginLogs.list(await request.validateUsing(listLoginLogsValidator))
    return serialize(LoginLogTransformer.paginate(page.rows, page.meta))
  }
}
