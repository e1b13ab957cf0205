import { BaseCommand, args } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'

/**
 * node ace user:reset-2fa <account>
 *
 * Removes the account's second factors (TOTP and passkeys) and ends its sessions (the same service as
 * DELETE /api/admin/users/:id/2fa): the way back for the last super admin who lost the phone
 * and the recovery codes, when no other administrator can reset it.
 */
export default class UserResetTwoFactor extends BaseCommand {
  static commandName = 'user:reset-2fa'
  static description = "Remove an administrator's second factors (TOTP, passkeys), end its sessions"
  static options: CommandOptions = { startApp: true }

  @args.string({ description: 'Account name' })
  declare account: string

  async run() {
    const { findAccount } = await import('#auth/passwords')
    const { resetSecondFactor } = await import('#services/two_factor_service')
    const { commandSource, recordAudit } = await import('#services/audit_log')
    const { PERMISSIONS } = await import('#auth/permissions')
    const user = await findAccount(this.account)
    if (!user) {
      this.logger.error(`No administrator with account "${this.account}"`)
      this.exitCode = 1
      return
    }
    await resetSecondFactor(user, {
      audit: (trx, changes) =>
        recordAudit(
          trx,
          commandSource(UserResetTwoFactor.commandName, PERMISSIONS.user.resetTwoFactor),
          { targetType: 'user', targetId: user.id, changes }
        ),
    })
    this.logger.success(
      `Second factors (TOTP, passkeys) of "${user.account}" removed; its sessions ended`
    )
  }
}
