/*
| Listeners of the application's events (preloaded by adonisrc.ts).
| The mail service is imported by the first event (it loads the captcha service, the limiter's
| keys and the mail templates: ~50 modules no request needs before a login fails). The import
| runs as work after the answer (app/services/email/outbox.ts), so SIGTERM and the suites'
| `settled()` wait for it and for the mail it starts.
*/
import emitter from '@adonisjs/core/services/emitter'
import logger from '@adonisjs/core/services/logger'
import { afterAnswer } from '#services/email/outbox'

const emailService = () => import('#services/email/email_service')

// The owner of an account whose ceiling was just reached gets a mail (docs/email.md).
emitter.on('auth:ceiling_reached', (event) =>
  afterAnswer('mail.lock_notice', async () => {
    const { noticeLock } = await emailService()
    noticeLock(event, logger)
  })
)
// So does the owner of a right password whose second step was refused (once a day).
emitter.on('auth:second_step_failed', (event) =>
  afterAnswer('mail.second_step_notice', async () => {
    const { noticeSecondStep } = await emailService()
    noticeSecondStep(event, logger)
  })
)
