import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { withRealCommits } from '#tests/helpers/database'
import { countQueries, createAdmin, sessionToken } from '#tests/helpers/auth'
import { until } from '#tests/helpers/until'

/*
| On PostgreSQL, concurrent protected requests share the guard's statement (app/auth/guards/
| jwt_guard.ts, FreshReads): one statement for the requests that arrived while the previous one
| was on its way. With real commits and real concurrency: every request still gets its own
| account, and nothing revoked before a request was sent lets that request in.
*/
test.group(
  'JWT guard: concurrent requests share the guard statement, never a stale one',
  (group) => {
    withRealCommits(group)

    const me = (client: any, token: string) =>
      client.get('/api/auth/me').header('authorization', `Bearer ${token}`)

    test('40 concurrent requests of 4 sessions: each answered as its own account', async ({
      client,
      assert,
    }) => {
      const accounts = ['batch-a', 'batch-b', 'batch-c', 'batch-d']
      const tokens = await Promise.all(
        accounts.map(async (account) => (await sessionToken((await createAdmin(account)).id)).token)
      )
      const { result, queries } = await countQueries(() =>
        Promise.all(
          Array.from({ length: 40 }, async (_, index) => {
            const response = await me(client, tokens[index % 4])
            return { status: response.status(), account: response.body().data?.user?.account }
          })
        )
      )
      result.forEach((answer, index) =>
        assert.deepEqual(answer, { status: 200, account: accounts[index % 4] })
      )
      // Whether they shared statements depends on timing; what they share is checked below.
      assert.isAtMost(queries.filter((sql) => sql.includes('admin_sessions s ON')).length, 40)
    })

    test('a session ended by raw SQL while its token floods in: no request sent after gets in', async ({
      client,
      assert,
    }) => {
      const user = await createAdmin('batch-race')
      const other = await sessionToken(user.id)
      for (let round = 0; round < 8; round++) {
        const { token, sessionId } = await sessionToken(user.id)
        let ended = false
        let stop = false
        const late: number[] = []
        let before = 0
        const worker = async () => {
          while (!stop) {
            const sentAfterEnd = ended
            const status = (await me(client, token)).status()
            if (sentAfterEnd) late.push(status)
            else if (status === 200) before++
          }
        }
        const workers = Array.from({ length: 8 }, worker)
        // Wait on what was seen, not on a clock: a loaded CI machine may answer nothing in 40 ms.
        await until('a 200 before the session ends', () => before > 0)
        // Committed behind the app's back, while guard statements are on their way.
        await db.from('admin_sessions').where('id', sessionId).update({ ended_at: Date.now() })
        ended = true
        await until('answers sent after it ended', () => late.length >= 8)
        stop = true
        await Promise.all(workers)
        assert.isAbove(before, 0)
        assert.isAbove(late.length, 0)
        assert.deepEqual([...new Set(late)], [401], `round ${round}`)
      }
      // The account's other session is untouched.
      ;(await me(client, other.token)).assertStatus(200)
    })
  }
)
