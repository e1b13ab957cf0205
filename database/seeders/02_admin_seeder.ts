import { BaseSeeder } from '@adonisjs/lucid/seeders'
import env from '#start/env'
import { createAccount, generatePassword } from '#services/admin_account_service'
import { findAccount } from '#auth/passwords'
import Dept from '#models/dept'
import { type Localized, seedLocale } from '#database/seed_locale'

const NICKNAME: Localized = { 'en': 'Administrator', 'zh-CN': '管理员' }

/**
 * The first administrator, holding the super-admin role. Account from ADMIN_ACCOUNT (default
 * "admin"), password from ADMIN_PASSWORD; without one, a random password is generated and printed
 * once. There is no default password. Does nothing when the account already exists (in any
 * letter case). The same createAccount() as the admin API and `node ace user:create`, so the
 * printed password must be changed at the first sign-in (E_PASSWORD_CHANGE_REQUIRED until then).
 */
export default class AdminSeeder extends BaseSeeder {
  async run() {
    const account = env.get('ADMIN_ACCOUNT') || 'admin'
    const existing = await findAccount(account)
    if (existing) {
      this.print(
        `Administrator "${existing.account}" already exists (reset its password with: node ace user:reset-password ${existing.account})`
      )
      return
    }
    const given = env.get('ADMIN_PASSWORD')
    const password = given || generatePassword()
    const { id: deptId } = await Dept.root()
    await createAccount(
      { account, password, nickname: NICKNAME[seedLocale()], deptId },
      { superAdmin: true }
    )
    this.print(
      given
        ? `Created administrator "${account}" with the password from ADMIN_PASSWORD (to be changed at the first sign-in)`
        : `Created administrator — account: ${account}  password: ${password}  (shown once; it must be changed at the first sign-in)`
    )
  }

  private print(line: string) {
    if (env.get('NODE_ENV') !== 'test') process.stdout.write(`\n  ${line}\n\n`)
  }
}
