import { test } from '@japa/runner'
import { readFile, rm } from 'node:fs/promises'
import { DatabaseSync } from 'node:sqlite'
import app from '@adonisjs/core/services/app'
import { runAce } from '#tests/helpers/app_process'
import { DESTRUCTIVE_COMMANDS } from '#core/operations/destructive_commands'

/**
 * With NODE_ENV=production, Lucid's destructive commands refuse without --force
 * (app/core/operations/destructive_commands.ts; docs/deploy.md). Each command is another
 * process, on a SQLite file of its own, whatever DB_CONNECTION the suite runs on.
 */
test.group('destructive commands in production', () => {
  test('every guarded command is a Lucid command with a --force flag', async ({ assert }) => {
    const manifest = JSON.parse(
      await readFile(
        app.makePath('node_modules/@adonisjs/lucid/build/commands/commands.json'),
        'utf8'
      )
    ) as { commands: { commandName: string; flags: { name: string }[] }[] }
    for (const name of DESTRUCTIVE_COMMANDS) {
      const command = manifest.commands.find((entry) => entry.commandName === name)
      assert.exists(command, name)
      assert.include(
        command!.flags.map((flag) => flag.name),
        'force',
        name
      )
    }
  })

  test('db:wipe and migration:rollback refuse without --force, run with it', async ({
    assert,
    cleanup,
  }) => {
    const file = app.makePath(`tmp/destructive-commands-${process.pid}.sqlite3`)
    cleanup(() => rm(file, { force: true }))
    const production = { NODE_ENV: 'production', DB_CONNECTION: 'sqlite', SQLITE_FILE: file }
    const migrated = () => {
      const sqlite = new DatabaseSync(file, { readOnly: true })
      try {
        return (sqlite.prepare('SELECT count(*) AS n FROM adonis_schema').get() as { n: number }).n
      } finally {
        sqlite.close()
      }
    }

    const setup = runAce(['migration:run', '--force'], production)
    assert.equal(setup.status, 0, setup.output)
    const total = migrated()
    assert.isAbove(total, 10)

    for (const name of ['db:wipe', 'migration:rollback']) {
      const refused = runAce([name], production)
      assert.equal(refused.status, 1, refused.output)
      assert.include(refused.output, `"${name}" deletes data and NODE_ENV is production: refused`)
      assert.include(refused.output, `node ace ${name} --force`)
      assert.equal(migrated(), total, `${name} changed nothing`)
    }

    const forced = runAce(['migration:rollback', '--force'], production)
    assert.equal(forced.status, 0, forced.output)
    assert.equal(migrated(), 0)
  })
})
