import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { defineConfig, destination, syncDestination } from '@adonisjs/core/logger'

const loggerConfig = defineConfig({
  default: 'app',
  loggers: {
    app: {
      enabled: true,
      name: 'adonis-rbac',
      level: env.get('LOG_LEVEL'),
      // Never log secrets even if a caller passes them by mistake.
      redact: {
        paths: [
          'password',
          '*.password',
          'currentPassword',
          'newPassword',
          'captchaToken',
          'token',
          '*.token',
          'req.headers.authorization',
        ],
        censor: '[redacted]',
      },
      // Production writes stdout from the main thread, asynchronously (sonic-boom), not through a
      // pino transport: a transport is a worker thread with its own V8 heap (~15 MB resident) and
      // costs twice the CPU per line. Lines wait in memory while stdout is busy; past 16 MB (a
      // reader stuck for a long while) new lines are dropped rather than memory growing (a
      // transport queues up to 512 MB, then blocks the event loop). Both flush on a normal exit
      // and both lose what is in flight on a hard kill (docs/operations.md, "Access log").
      destination: app.inProduction
        ? destination({ dest: 1, sync: false, maxLength: 16 * 1024 * 1024 })
        : await syncDestination(),
    },
  },
})

export default loggerConfig

declare module '@adonisjs/core/types' {
  export interface LoggersList extends InferLoggers<typeof loggerConfig> {}
}
