/*
| Operations, for the HTTP server (web and test environments, adonisrc.ts): every answered
| request is observed in the metrics and written to the access log (docs/operations.md,
| "Metrics" and "Access log").
*/
import emitter from '@adonisjs/core/services/emitter'
import { requestCompleted } from '#services/operations/access_log'

emitter.on('http:request_completed', requestCompleted)
