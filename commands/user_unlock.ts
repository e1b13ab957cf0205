import { BaseCommand, args } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'

/**
 * node ace user:unlock <account>
 *
 * Clears the account's login blocks and failure counts in the shared limiter store, so every
 * instance lets the owner log in again (the same service as POST /api/admin/users/:id/unlock).
 */
export default class UserUnlock extends BaseCommand {
  static commandName = 'user:unlock'
  static description = "Clear an administrator's login blocks on every instance"
  static options: CommandOptions = { startApp: true }

  @args.string({ description: 'Account name' })
  declare account: string

  async run() {
    const { findAccount } = await import('#auth/passwords')
    const { unlockAccount } = await import('#services/admin_account_service')
    const user = await findAccount(this.account)
    if (!user) {
      this.logger.error(`No administrator with account "${this.account}"`)
      this.exitCode = 1
      return
    }
    await unlockAccount(user)
    // The blocks live in the limiter's store (its own connection): the audit row follows.
    const { default: db } = await import('@adonisjs/lucid/services/db')
    const { commandSource, recordAudit } = await import('#services/audit_log')
    const { PERMISSIONS } = await import('#auth/permissions')
    await recordAudit(
      db.connection(),
      commandSource(UserUnlock.commandName, PERMISSIONS.user.unlock),
      {
        targetType: 'user',
        targetId: user.id,
      }
    )
    this.logger.success(`Login blocks of "${user.account}" cleared`)
  }
}
