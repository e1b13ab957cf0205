/*
| Listeners of the application's events (preloaded by adonisrc.ts).
*/
import emitter from '@adonisjs/core/services/emitter'
import logger from '@adonisjs/core/services/logger'
import { noticeLock } from '#services/email/email_service'

// The owner of an account whose ceiling was just reached gets a mail (docs/email.md).
emitter.on('auth:ceiling_reached', (event) => noticeLock(event, logger))
