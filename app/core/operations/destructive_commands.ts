import type { ApplicationService } from '@adonisjs/core/types'
import type { BaseCommand, Kernel } from '@adonisjs/core/ace'
import { DestructiveCommandRefused } from '#exceptions/internal_errors'

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
