import { BaseCommand, args, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'

/**
 * node ace user:reset-password <account> [--password=...] [--generate]
 *
 * Sets a new password through the same service as the admin API (policy, argon2id) and
 * increments tokenVersion, so every JWT of the account stops working on its next request.
 * Without --password it prompts (hidden input); without a terminal, or with --generate, it
 * generates a password and prints it once.
 */
export default class UserResetPassword extends BaseCommand {
  static commandName = 'user:reset-password'
  static description = 'Reset an administrator password and revoke every token of the account'
  static options: CommandOptions = { startApp: true }

  @args.string({ description: 'Account name' })
  declare account: string

  @flags.string({ description: 'The new password (avoid: it lands in shell history)' })
  declare password?: string

  @flags.boolean({ description: 'Generate a random password and print it once' })
  declare generate?: boolean

  async run() {
    const { findAccount } = await import('#auth/passwords')
    const { resetPassword, generatePassword } = await import('#services/admin_account_service')

    const user = await findAccount(this.account)
    if (!user) {
      this.logger.error(`No administrator with account "${this.account}"`)
      this.exitCode = 1
      return
    }

    const interactive = Boolean(process.stdin.isTTY) && !this.generate && !this.password
    const password = this.password
      ? this.password
      : interactive
        ? await this.prompt.secure('New password')
        : generatePassword()

    try {
      const { MASKED, commandSource, recordAudit } = await import('#services/audit_log')
      const { PERMISSIONS } = await import('#auth/permissions')
      const source = commandSource(UserResetPassword.commandName, PERMISSIONS.user.resetPassword)
      await resetPassword(user, password, (trx) =>
        recordAudit(trx, source, {
          targetType: 'user',
          targetId: user.id,
          changes: { password: [MASKED, MASKED] },
        })
      )
    } catch (error) {
      // The password policy refused it (a 422 on the API).
      const { FieldError } = await import('#exceptions/api_exception')
      if (error instanceof FieldError) {
        this.logger.error(error.message)
        this.exitCode = 1
        return
      }
      throw error
    }

    this.logger.success(
      `Password of "${user.account}" reset; every existing token is revoked; it must be changed at the next sign-in`
    )
    if (!this.password && !interactive) {
      this.logger.info(`New password (shown once): ${password}`)
    }
  }
}
