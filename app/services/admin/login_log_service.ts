import type { Infer } from '@vinejs/vine/types'
import LoginLog from '#models/login_log'
import { newestFirst } from '#services/admin/common'
import type { listLoginLogsValidator } from '#validators/admin/login_log'

/** The login log, newest first. Written by app/auth/login_log.ts; read-only here. */
export default class LoginLogService {
  list(filters: Infer<typeof listLoginLogsValidator>) {
    return newestFirst(LoginLog, filters, ['account', 'ip', 'outcome'])
  }
}
