/*
| Listeners of the application's events (preloaded by adonisrc.ts).
*/
import emitter from '@adonisjs/core/services/emitter'
import logger from '@adonisjs/core/services/logger'
import { noticeLock, noticeSecondStep } from '#services/email/email_service'

// The owner of an account whose ceiling was just reached gets a mail (docs/email.md).
emitter.on('auth:ceiling_reached', (event) => noticeLock(event, logger))
// So does the owner of a right password whose second step was refused (once a day).
emitter.on('auth:second_step_failed', (event) => noticeSecondStep(event, logger))
