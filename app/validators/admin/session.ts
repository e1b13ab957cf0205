import { listValidator, optionalText } from '#validators/admin/common'
import { sessionSort } from '#resources/sessions'

/** GET /api/admin/sessions: live sessions, optionally of accounts matching `account`. */
export const listSessionsValidator = listValidator(sessionSort, {
  account: optionalText(64),
})
