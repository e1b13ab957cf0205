import type { ApplicationService } from '@adonisjs/core/types'
import type { BaseCommand, Kernel } from '@adonisjs/core/ace'

/**
 * Lucid's commands that drop tables, delete rows or undo migrations. With NODE_ENV=production
 * they refuse to run without `--force` (their own flag, which also skips Lucid's y/N question),
 * instead of asking that question: one "y" typed by habit in the production shell would empty
 * the database. docs/deploy.md, "Commands an operator runs".
 */
export const DESTRUCTIVE_COMMANDS = [
  'db:wipe',
  'db:truncate',
  'migration:fresh',
  'migration:refresh',
  'migration:reset',
  'migration:rollback',
]

/** Rendered by the ace kernel as the message alone (no stack), with exit code 1. */
export class DestructiveCommandRefused extends Error {
  constructor(readonly commandName: string) {
    super(
      `"${commandName}" deletes data and NODE_ENV is production: refused. ` +
        `Take a backup, then run "node ace ${commandName} --force" if that is what you mean.`
    )
  }

  render(_error: unknown, kernel: Kernel) {
    kernel.ui.logger.logError(`${kernel.ui.colors.bgRed().white('  ERROR  ')} ${this.message}`)
  }
}

/**
 * Checked as each command starts (the main one and those it runs: `migration:fresh --force`
 * passes `--force` on to `db:wipe`), after the app has booted, so NODE_ENV may come from
 * `$ENV_PATH/.env` as well as from the environment.
 */
export function refuseDestructiveCommandsInProduction(app: ApplicationService, kernel: Kernel) {
  kernel.executing((command: BaseCommand) => {
    const name = (command.constructor as typeof BaseCommand).commandName
    if (!app.inProduction || !DESTRUCTIVE_COMMANDS.includes(name)) return
    if ((command as BaseCommand & { force?: boolean }).force === true) return
    throw new DestructiveCommandRefused(name)
  })
}
