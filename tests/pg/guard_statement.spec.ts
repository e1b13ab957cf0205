import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { isolate } from '#tests/helpers/database'
import { countQueries, createAdmin, sessionToken } from '#tests/helpers/auth'
import { readGuardRows } from '#auth/guards/jwt_guard'

// The statement concurrent requests share on PostgreSQL (app/auth/guards/jwt_guard.ts); the
// sharing itself: tests/unit/fresh_read.spec.ts and tests/functional/guard_batching.spec.ts.
test.group('JWT guard: the shared statement on PostgreSQL', (group) => {
  isolate(group)

  test('one statement answers many pairs, each with its own account and session', async ({
    assert,
  }) => {
    const a = await createAdmin('pairs-a')
    const b = await createAdmin('pairs-b')
    const sessionA = (await sessionToken(a.id)).sessionId
    const sessionB = (await sessionToken(b.id)).sessionId
    await db.from('admin_sessions').where('id', sessionB).update({ ended_at: 1 })
    const pairs = [
      `${a.id} ${sessionA}`,
      `${b.id} ${sessionB}`,
      // A's account with B's session: the session is not A's, so none.
      `${a.id} ${sessionB}`,
      `2147483647 ${sessionA}`,
    ]
    const { result: rows, queries } = await countQueries(() => readGuardRows(pairs))
    assert.lengthOf(queries, 1)
    assert.deepEqual(
      pairs.map((pair) => {
        const row = rows.get(pair)
        return row && [row.account, row.session_expires_at !== null, Number(row.session_ended_at)]
      }),
      [['pairs-a', true, 0], ['pairs-b', true, 1], ['pairs-a', false, 0], undefined]
    )
  })
})
