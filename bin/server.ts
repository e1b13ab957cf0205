/*
| HTTP server entrypoint (`node ace serve` in development, `node bin/server.js` after `node ace build`).
*/
// First: on an older Node, one line and exit 1 before any native module loads.
import './node_version.js'

await import('reflect-metadata')
const { Ignitor, prettyPrintError } = await import('@adonisjs/core')
const { createApiServer } = await import('#start/http_server')
const { gracefulShutdown, trackServer } = await import('#core/operations/lifecycle')

const APP_ROOT = new URL('../', import.meta.url)

const IMPORTER = (filePath: string) => {
  if (filePath.startsWith('./') || filePath.startsWith('../')) {
    return import(new URL(filePath, APP_ROOT).href)
  }
  return import(filePath)
}

new Ignitor(APP_ROOT, { importer: IMPORTER })
  .tap((app) => {
    app.booting(async () => {
      await import('#start/env')
    })
    // Drain, then exit 0 (app/core/operations/lifecycle.ts).
    app.listen('SIGTERM', () => gracefulShutdown(app))
    app.listenIf(app.managedByPm2, 'SIGINT', () => gracefulShutdown(app))
  })
  .httpServer()
  .start((handler) => trackServer(createApiServer(handler)))
  .catch((error) => {
    process.exitCode = 1
    prettyPrintError(error)
  })
