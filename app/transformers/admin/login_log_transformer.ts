import { BaseTransformer } from '@adonisjs/core/transformers'
import type LoginLog from '#models/login_log'
import { named, s, shape, sortable } from '#openapi/schema'
import { LOGIN_OUTCOMES } from '#models/login_log'
import { csvColumns } from '#transformers/csv_columns'

/** Both logs fold repeated refusals into one row per key per minute. */
export const attempts = () =>
  s.integer({
    minimum: 1,
    description: 'attempts this row stands for (refusals: one row per key per minute)',
  })

const loginLog = shape({
  id: s.integer(),
  createdAt: s.dateTime(),
  account: s.string(),
  userId: s.nullable(s.integer()),
  ip: s.string(),
  userAgent: s.string(),
  outcome: s.enum(LOGIN_OUTCOMES),
  count: attempts(),
})
/** Response contract (OpenAPI). */
export const loginLogSchema = named('LoginLog', loginLog.schema)
/** What `sort` accepts on the login log (and its export). */
export const loginLogSort = sortable(loginLog, [
  'id',
  'createdAt',
  'account',
  'ip',
  'outcome',
  'count',
])
/** Columns of the CSV export: every field. */
export const loginLogCsv = csvColumns(loginLog)

/** One login attempt as the login-log page shows it. */
export default class LoginLogTransformer extends BaseTransformer<LoginLog> {
  toObject() {
    return this.pick(this.resource, loginLog.keys)
  }
}
