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
    const { default: User } = await import('#models/user')
    const { default: hash } = await import('@adonisjs/core/services/hash')
    const { createSuperAdmin, generatePassword } = await import('#services/admin_account_service')
    const { assertPasswordPolicy } = await import('#services/password_policy')
    const { default: db } = await import('@adonisjs/lucid/services/db')
    const { changedFields, commandSource, recordAudit } = await import('#services/audit_log')
    const { PERMISSIONS } = await import('#auth/permissions')
    const source = commandSource(UserCreate.commandName, PERMISSIONS.user.create)
    // The audit row is written in the account's own transaction.
    const audit = (trx: any, user: any) =>
      recordAudit(trx, source, {
        targetType: 'user',
        targetId: user.id,
        changes: {
          ...changedFields({}, user.$attributes),
          ...(this.superAdmin ? { roles: [[], ['super_admin']] } : {}),
        },
      })

    if (await User.findBy('account', this.account)) {
      this.logger.error(`Account "${this.account}" already exists`)
      this.exitCode = 1
      return
    }
    const password = this.password ?? generatePassword()
    const nickname = this.nickname ?? this.account
    try {
      if (this.superAdmin) {
        await createSuperAdmin(this.account, password, nickname, audit)
      } else {
        await assertPasswordPolicy(password, this.account)
        const digest = await hash.make(password)
        await db.transaction(async (trx) => {
          const user = await User.create(
            {
              account: this.account,
              nickname,
              password: digest,
              status: 'enabled',
              tokenVersion: 0,
            },
            { client: trx }
          )
          await audit(trx, user)
        })
      }
    } catch (error) {
      if ((error as { code?: string }).code === 'E_VALIDATION_ERROR') {
        this.logger.error((error as Error).message)
        this.exitCode = 1
        return
      }
      throw error
    }
    this.logger.success(
      `Created administrator "${this.account}"${this.superAdmin ? ' (super admin)' : ''}`
    )
    if (!this.password) this.logger.info(`Password (shown once): ${password}`)
  }
}
