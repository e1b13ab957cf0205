/*
| Ace entrypoint: boots the command-line framework (commands start the app only when they ask to).
*/
// First: on an older Node, one line and exit 1 before any native module loads.
import './node_version.js'

await import('reflect-metadata')
const { Ignitor, prettyPrintError } = await import('@adonisjs/core')

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
    // Ends the command and every process it started (`serve`: the HTTP server; `test`: the
    // test process and its own), after the app's termination
    // (app/core/operations/process_tree.ts).
    app.listen('SIGTERM', async () => {
      const { stopProcessTree } = await import('#core/operations/process_tree')
      await stopProcessTree({ beforeExit: () => app.terminate() })
    })
    app.listenIf(app.managedByPm2, 'SIGINT', () => app.terminate())
  })
  .ace()
  .configure(async (app) => {
    // db:wipe, migration:fresh|refresh|reset|rollback, db:truncate: --force in production.
    const { refuseDestructiveCommandsInProduction } =
      await import('#core/operations/destructive_commands')
    refuseDestructiveCommandsInProduction(app, await app.container.make('ace'))
  })
  .handle(process.argv.splice(2))
  .catch((error) => {
    process.exitCode = 1
    prettyPrintError(error)
  })
