/*
| Test runner entrypoint (`node ace test`): boots the app in the "test" environment and runs Japa.
*/
process.env.NODE_ENV = 'test'

import 'reflect-metadata'
import { Ignitor, prettyPrintError } from '@adonisjs/core'
import { configure, processCLIArgs, run } from '@japa/runner'
import { stopProcessTree } from '#core/operations/process_tree'

const APP_ROOT = new URL('../', import.meta.url)

/**
 * Mail goes through a real SMTP server the run starts on a free loopback port
 * (tests/helpers/smtp.ts), unless SMTP_HOST names one already (the deploy suite's deployment).
 */
if (!process.env.SMTP_HOST) {
  const { startSmtpServer } = await import('#tests/helpers/smtp')
  const smtp = await startSmtpServer()
  process.env.SMTP_HOST = '127.0.0.1'
  process.env.SMTP_PORT = String(smtp.port)
}

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
    // The run ends at once, with the processes it started: app processes, `node ace`
    // commands, Chromium (app/core/operations/process_tree.ts).
    app.listen('SIGTERM', () => stopProcessTree({ beforeExit: () => app.terminate() }))
    app.listenIf(app.managedByPm2, 'SIGINT', () => app.terminate())
  })
  .testRunner()
  .configure(async (app) => {
    const { runnerHooks, ...config } = await import('../tests/bootstrap.js')

    processCLIArgs(process.argv.splice(2))
    configure({
      ...app.rcFile.tests,
      ...config,
      ...{
        setup: runnerHooks.setup,
        teardown: runnerHooks.teardown.concat([() => app.terminate()]),
      },
    })
  })
  .run(() => run())
  .catch((error) => {
    process.exitCode = 1
    prettyPrintError(error)
  })
