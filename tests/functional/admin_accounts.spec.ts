import { test } from '@japa/runner'
import hash from '@adonisjs/core/services/hash'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import { isolate, withRealCommits } from '#tests/helpers/database'
import { ADMIN_ACCOUNT } from '#tests/helpers/auth'
import { RoleFactory } from '#database/factories/role_factory'
import CaseInsensitiveAccounts, {
  ACCOUNT_LOWER_INDEX,
  accountCaseClashes,
} from '#database/migrations/1763800000019_users_account_case_insensitive'
import { runAce } from '#tests/helpers/app_process'

/** Issue "One shape per resource": one account creation, accounts unique in any letter case. */

const TAKEN = (existing: string) =>
  `An account named "${existing}" already exists (accounts are case-insensitive)`

const ace = runAce

const seed = (account: string, password: string) =>
  ace(['db:seed', '--files', 'database/seeders/02_admin_seeder.ts'], {
    ADMIN_ACCOUNT: account,
    ADMIN_PASSWORD: password,
  })

const userCount = async () => Number((await db.from('users').count('* as n'))[0].n)

const rawInsert = (account: string) =>
  db.transaction((trx) =>
    trx.table('users').insert({
      account,
      password: 'not-a-digest',
      created_at: new Date(),
      updated_at: new Date(),
    })
  )

async function indexExists(name: string) {
  const connection = db.connection()
  const rows =
    connection.dialect.name === 'postgres'
      ? (await connection.rawQuery('SELECT 1 FROM pg_indexes WHERE indexname = ?', [name])).rows
      : await connection.rawQuery("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?", [
          name,
        ])
  return rows.length > 0
}

const migration = () => new CaseInsensitiveAccounts(db.connection(), 'test', false)

const digestParameters = (digest: string) => digest.replace(/\$[^$]*\$[^$]*$/, '')

/**
 * What every creation path must agree on: enabled, token version 0, no email, never logged in,
 * an argon2id digest of the given password made with the current parameters (those of the seeded
 * administrator's), and the role codes.
 */
async function shapeOf(account: string, password: string) {
  const user = await User.query().where('account', account).preload('roles').firstOrFail()
  return {
    status: user.status,
    tokenVersion: user.tokenVersion,
    email: user.email,
    lastLoginAt: user.lastLoginAt,
    digest: digestParameters(user.password),
    verifies: await hash.verify(user.password, password),
    needsReHash: hash.needsReHash(user.password),
    roles: user.roles.map((role) => role.code),
  }
}

async function expectedShape(roles?: string[]) {
  const reference = await User.query()
    .where('account', ADMIN_ACCOUNT)
    .preload('roles')
    .firstOrFail()
  return {
    status: 'enabled',
    tokenVersion: 0,
    email: null,
    lastLoginAt: null,
    digest: digestParameters(reference.password),
    verifies: true,
    needsReHash: false,
    roles: roles ?? reference.roles.map((role) => role.code),
  }
}

test.group('Accounts: unique in any letter case, at the database and in the admin API', (group) => {
  isolate(group)

  test('a raw insert of a case variant of an existing account fails at the database', async ({
    assert,
  }) => {
    const error = await rawInsert(ADMIN_ACCOUNT.toUpperCase()).then(
      () => null,
      (failure) => failure
    )
    assert.include(['23505', 'SQLITE_CONSTRAINT_UNIQUE'], error?.code, String(error))
    assert.include(String(error), ACCOUNT_LOWER_INDEX)
    assert.equal(await userCount(), 1)
    await rawInsert('someone.else')
    assert.equal(await userCount(), 2)
  })

  test('the migration lists the clashes and creates nothing while any is left', async ({
    assert,
  }) => {
    await migration().execDown()
    assert.isFalse(await indexExists(ACCOUNT_LOWER_INDEX))
    await rawInsert(ADMIN_ACCOUNT.toUpperCase())
    await rawInsert('dora')
    await rawInsert('Dora')
    await rawInsert('dora.two')
    assert.deepEqual(await accountCaseClashes(db.connection()), [
      [ADMIN_ACCOUNT, ADMIN_ACCOUNT.toUpperCase()],
      ['dora', 'Dora'],
    ])

    await assert.rejects(
      () => migration().execUp(),
      `accounts differing only by case: ${ADMIN_ACCOUNT} / ${ADMIN_ACCOUNT.toUpperCase()}, dora / Dora — rename one, then run the migration again`
    )
    assert.isFalse(await indexExists(ACCOUNT_LOWER_INDEX))

    // Renamed: the migration runs again and the database refuses the next clash.
    await db.from('users').where('account', ADMIN_ACCOUNT.toUpperCase()).update({ account: 'x1' })
    await db.from('users').where('account', 'Dora').update({ account: 'dora.three' })
    assert.deepEqual(await accountCaseClashes(db.connection()), [])
    await migration().execUp()
    assert.isTrue(await indexExists(ACCOUNT_LOWER_INDEX))
    await assert.rejects(() => rawInsert('DORA'))
  })

  test('the admin API makes the common shape and refuses a case variant, naming the account', async ({
    client,
    assert,
  }) => {
    const admin = await User.findByOrFail('account', ADMIN_ACCOUNT)
    const role = await RoleFactory.create()
    const created = await client
      .post('/api/admin/users')
      .json({ account: 'by.api', password: 'Api-created-Passw0rd-9', roleIds: [role.id] })
      .loginAs(admin)
    created.assertStatus(201)
    assert.deepEqual(
      await shapeOf('by.api', 'Api-created-Passw0rd-9'),
      await expectedShape([role.code])
    )
    assert.match((await expectedShape()).digest, /^\$argon2id\$/)

    const users = await userCount()
    const taken = await client
      .post('/api/admin/users')
      .json({ account: 'BY.API', password: 'Another-Passw0rd-31' })
      .loginAs(admin)
    taken.assertStatus(409)
    assert.equal(taken.body().errors[0].code, 'E_CONFLICT')
    assert.equal(taken.body().errors[0].message, TAKEN('by.api'))
    assert.equal(await userCount(), users)
  })
})

/** The commands are other processes: committed rows. */
test.group('Accounts: node ace user:create and the seeder, the same path as the API', (group) => {
  withRealCommits(group)

  test('node ace user:create ADMIN next to admin is refused, saying why, and writes nothing', async ({
    assert,
  }) => {
    const users = await userCount()
    const audits = Number((await db.from('audit_logs').count('* as n'))[0].n)
    const run = ace(['user:create', ADMIN_ACCOUNT.toUpperCase(), '--password=Command-Passw0rd-1'])
    assert.equal(run.status, 1, run.output)
    assert.include(run.output, TAKEN(ADMIN_ACCOUNT))
    assert.notInclude(run.output, 'Created administrator')
    assert.equal(await userCount(), users)
    assert.equal(Number((await db.from('audit_logs').count('* as n'))[0].n), audits)
  })

  test('node ace user:create and the seeder make the same account and refuse a case variant alike', async ({
    assert,
  }) => {
    const command = ace([
      'user:create',
      'by.command',
      '--super-admin',
      '--password=Cmd-Passw0rd-42',
    ])
    assert.equal(command.status, 0, command.output)
    const seeded = seed('by.seeder', 'Seeder-Passw0rd-77')
    assert.equal(seeded.status, 0, seeded.output)
    // Both super administrators hold exactly the role the first administrator holds.
    const superAdmin = await expectedShape()
    assert.deepEqual(await shapeOf('by.command', 'Cmd-Passw0rd-42'), superAdmin)
    assert.deepEqual(await shapeOf('by.seeder', 'Seeder-Passw0rd-77'), superAdmin)
    const users = await userCount()

    const again = ace(['user:create', 'By.Seeder', '--password=Another-Passw0rd-31'])
    assert.equal(again.status, 1, again.output)
    assert.include(again.output, TAKEN('by.seeder'))
    const reseeded = seed('BY.COMMAND', 'Another-Passw0rd-31')
    assert.equal(reseeded.status, 0, reseeded.output)
    assert.equal(await userCount(), users)
    const stored = await User.findByOrFail('account', 'by.command')
    assert.isFalse(await hash.verify(stored.password, 'Another-Passw0rd-31'))
  })
})
