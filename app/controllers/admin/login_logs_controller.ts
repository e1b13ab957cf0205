import { inject } from '@adonisjs/core'
import type LoginLog from '#models/login_log'
import { LogController, listContract } from '#controllers/admin/crud'
import LoginLogService from '#services/admin/login_log_service'
import LoginLogTransformer from '#transformers/admin/login_log_transformer'
import { exportLoginLogsValidator, listLoginLogsValidator } from '#validators/admin/login_log'
import { contract } from '#openapi/contract'
import { exportOperation } from '#services/admin/list_export'
import { loginLogSchema } from '#transformers/admin/login_log_transformer'
import { loginLogCsv } from '#resources/login_logs'

/** /api/admin/login-logs: every login attempt, newest first. */
@inject()
export default class LoginLogsController extends LogController<LoginLog> {
  static contract = contract({
    ...listContract(
      'Login log: every attempt and its outcome',
      listLoginLogsValidator,
      loginLogSchema
    ),
    export: exportOperation('the login log', exportLoginLogsValidator),
  })

  protected transformer = LoginLogTransformer
  protected csv = { name: 'login-logs', columns: loginLogCsv }

  constructor(protected service: LoginLogService) {
    super()
  }
}
