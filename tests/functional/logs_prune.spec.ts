import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import { withRealCommits } from '#tests/helpers/database'
import { createAdmin } from '#tests/helpers/auth'
import { runAce } from '#tests/helpers/app_process'

const stored = (time: DateTime) => time.toUTC().toFormat(db.connection().dialect.dateTimeFormat)

/** The command is another process: committed rows. */
test.group('node ace logs:prune', (group) => {
  withRealCommits(group)

  test('deletes old log rows and old sessions in batches, keeps the recent ones', async ({
    assert,
  }) => {
    const user = await createAdmin('pruned.owner')
    const old = stored(DateTime.utc().minus({ days: 40 }))
    const recent = stored(DateTime.utc().minus({ days: 10 }))
    // More old rows than one batch (5,000), so the loop must go round.
    const loginRow = (at: string, i: number) => ({
      created_at: at,
      account: `acct${i}`,
      ip: '10.0.0.1',
      user_agent: '',
      outcome: 'wrong_password',
    })
    for (let start = 0; start < 12_000; start += 500) {
      await db
        .table('login_logs')
        .multiInsert(Array.from({ length: 500 }, (_, i) => loginRow(old, start + i)))
    }
    await db.table('login_logs').multiInsert([loginRow(recent, 1), loginRow(recent, 2)])
    const audit = (at: string) => ({
      created_at: at,
      actor: 'x',
      permission: 'system:user:update',
      target_type: 'user',
      outcome: 'succeeded',
    })
    await db.table('audit_logs').multiInsert([audit(old), audit(old), audit(recent)])
    const day = 86_400_000
    const session = (id: string, ended: number | null, expires: number) => ({
      id: id.padEnd(22, 'x'),
      user_id: user.id,
      ip: '10.0.0.1',
      created_at: Date.now() - 60 * day,
      last_seen_at: Date.now() - 60 * day,
      expires_at: expires,
      ended_at: ended,
    })
    await db
      .table('admin_sessions')
      .multiInsert([
        session('endedlongago', Date.now() - 40 * day, Date.now() + day),
        session('expiredlongago', null, Date.now() - 40 * day),
        session('endedrecently', Date.now() - 2 * day, Date.now() + day),
        session('stillalive', null, Date.now() + day),
      ])

    // API tokens: expired long ago and revoked long ago go; expired recently, revoked recently
    // (created within the window) and live ones stay.
    const token = (name: string, created: number, expires: number, version: number) => ({
      user_id: user.id,
      name,
      token_hash: name.padEnd(64, '0'),
      hint: 'abcd',
      permissions: '[]',
      token_version: version,
      created_at: created,
      expires_at: expires,
    })
    const owners = Number(user.tokenVersion)
    await db
      .table('api_tokens')
      .multiInsert([
        token('expiredlongago', Date.now() - 90 * day, Date.now() - 40 * day, owners),
        token('revokedlongago', Date.now() - 40 * day, Date.now() + day, owners - 1),
        token('expiredrecently', Date.now() - 50 * day, Date.now() - 2 * day, owners),
        token('revokedrecently', Date.now() - 2 * day, Date.now() + day, owners - 1),
        token('live', Date.now() - 40 * day, Date.now() + day, owners),
      ])

    const run = runAce(['logs:prune', '--days=30'])
    assert.equal(run.status, 0, run.output)
    assert.include(run.stdout, '12000 login log, 2 audit log, 2 sessions, 2 API tokens')
    assert.lengthOf(await db.from('login_logs'), 2)
    assert.lengthOf(await db.from('audit_logs'), 1)
    assert.sameMembers(
      (await db.from('admin_sessions').select('id')).map((row) => row.id.replace(/x+$/, '')),
      ['endedrecently', 'stillalive']
    )
    assert.sameMembers(
      (await db.from('api_tokens').select('name')).map((row) => row.name),
      ['expiredrecently', 'revokedrecently', 'live']
    )

    assert.equal(runAce(['logs:prune', '--days=0']).status, 1)
  })
})
