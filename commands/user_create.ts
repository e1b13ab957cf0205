import { BaseCommand, args, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'

/**
 * node ace user:create <account> [--password=...] [--nickname=...] [--super-admin]
 *
 * Creates an administrator. Without --password a random one is generated and printed once.
 * Only --super-admin grants a role here; other roles are assigned through the admin API.
 */
export default class UserCreate extends BaseCommand {
  static commandName = 'user:create'
  static description = 'Create an administrator account'
  static options: CommandOptions = { startApp: true }

  @args.string({ description: 'Account name' })
  declare account: string

  @flags.string({ description: 'Password (generated and printed once when omitted)' })
  declare password?: string

  @flags.string({ description: 'Display name' })
  declare nickname?: string

  @flags.boolean({ description: 'Grant the protected super_admin role' })
  declare superAdmin?: boolean

  async run() {
    const { createAccount, generatePassword } = await import('#services/admin_account_service')
    const { changedFields, commandSource, recordAudit } = await import('#services/audit_log')
    const { PERMISSIONS } = await import('#auth/permissions')
    const source = commandSource(UserCreate.commandName, PERMISSIONS.user.create)
    const password = this.password ?? generatePassword()
    try {
      await createAccount(
        { account: this.account, password, nickname: this.nickname },
        {
          superAdmin: this.superAdmin,
          // The audit row is written in the account's own transaction.
          alsoInTransaction: (trx, user) =>
            recordAudit(trx, source, {
              targetType: 'user',
              targetId: user.id,
              changes: {
                ...changedFields({}, user.$attributes),
                ...(this.superAdmin ? { roles: [[], ['super_admin']] } : {}),
              },
            }),
        }
      )
    } catch (error) {
      // The password policy (422) or an account that exists in any letter case (409).
      const { ApiException, FieldError } = await import('#exceptions/api_exception')
      if (error instanceof FieldError || error instanceof ApiException) {
        this.logger.error(error.message)
        this.exitCode = 1
        return
      }
      throw error
    }
    this.logger.success(
      `Created administrator "${this.account}"${this.superAdmin ? ' (super admin)' : ''}; the password must be changed at the first sign-in`
    )
    if (!this.password) this.logger.info(`Password (shown once): ${password}`)
  }
}
