import type { Infer } from '@vinejs/vine/types'
import LoginLog from '#models/login_log'
import { logQuery, paginate } from '#services/admin/common'
import { loginLogSort } from '#resources/login_logs'
import type { listLoginLogsValidator } from '#validators/admin/login_log'

type Filters = Omit<Infer<typeof listLoginLogsValidator>, 'pageNum' | 'pageSize'>

/** The login log, newest first. Written by app/auth/login_log.ts; read-only here. */
export default class LoginLogService {
  /** The list's query, also its CSV export's. */
  query(filters: Filters) {
    return logQuery(LoginLog, filters, ['account', 'ip', 'outcome'], loginLogSort)
  }

  list(filters: Infer<typeof listLoginLogsValidator>) {
    return paginate(this.query(filters), filters)
  }
}
