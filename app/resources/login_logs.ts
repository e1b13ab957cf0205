import { LOGIN_OUTCOMES } from '#models/login_log'
import { s, shape, sortable } from '#openapi/schema'
import { csvColumns } from '#resources/csv_columns'

/** Both logs fold repeated refusals into one row per key per minute. */
export const attempts = () =>
  s.integer({
    minimum: 1,
    description: 'attempts this row stands for (refusals: one row per key per minute)',
  })

export const loginLog = shape({
  id: s.integer(),
  createdAt: s.dateTime(),
  account: s.string(),
  userId: s.nullable(s.integer()),
  ip: s.string(),
  userAgent: s.string(),
  outcome: s.enum(LOGIN_OUTCOMES),
  count: attempts(),
})
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
