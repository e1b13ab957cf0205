import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { blockedUntilMany, consume, countFailure, failureState } from '#auth/limits'
import { accountKey, ceilingKey } from '#auth/login_limiter'
import { withRealCommits } from '#tests/helpers/database'
import { UserFactory } from '#database/factories/user_factory'
import { seededAdmin } from '#tests/helpers/rbac'

/** Every statement sent while `work` runs, the limiter store's own included (knex's event). */
async function statements<T>(work: () => Promise<T>) {
  const knex = db.connection().getWriteClient()
  let count = 0
  const listener = () => count++
  knex.on('query', listener)
  try {
    const result = await work()
    return { result, count }
  } finally {
    knex.off('query', listener)
  }
}

/** Blocks an account's 15-minute key (its failures used up). */
async function lock(account: string) {
  const limit = accountKey(account)
  for (let i = 0; i < limit.requests; i++) await countFailure(limit)
}

test.group('Limits: lock state of many accounts', (group) => {
  withRealCommits(group)

  test('the users list reads lock state in a constant number of statements, whatever the page size', async ({
    client,
    assert,
  }) => {
    const users = await UserFactory.createMany(30)
    await lock(users[0].account)
    await lock(users[7].account)
    // The ceiling of another one, spent through the store.
    const ceiling = ceilingKey(users[12].account)
    for (let i = 0; i < ceiling.requests; i++) await consume(ceiling)
    const locked = new Set([users[0].id, users[7].id, users[12].id])
    const admin = await seededAdmin()

    // Warm: the session's last-seen write and the access snapshot come with the first request.
    await client.get('/api/admin/users').qs({ pageSize: 1 }).loginAs(admin)
    const counts: number[] = []
    for (const pageSize of [1, 10, 40]) {
      const { result, count } = await statements(() =>
        client.get('/api/admin/users').qs({ pageSize, sort: 'id' }).loginAs(admin)
      )
      result.assertStatus(200)
      counts.push(count)
      for (const row of result.body().data) {
        assert.equal(row.lockedUntil !== null, locked.has(row.id), `user ${row.id}`)
      }
    }
    assert.equal(new Set(counts).size, 1, `statements per page size 1, 10, 40: ${counts}`)
  })

  test("one read agrees with the store's own reads: blocked, counted but open, none", async ({
    assert,
  }) => {
    await lock('one')
    await countFailure(accountKey('two'))
    const ceiling = ceilingKey('three')
    for (let i = 0; i < ceiling.requests; i++) await consume(ceiling)
    const lists = ['one', 'two', 'three', 'four'].map((name) => [
      accountKey(name),
      ceilingKey(name),
    ])
    const many = await blockedUntilMany(lists)
    for (const [i, keys] of lists.entries()) {
      const states = await Promise.all(keys.map((limit) => failureState(limit)))
      assert.equal(
        many[i] !== null,
        states.some((state) => state.blocked),
        keys[0].key
      )
    }
    assert.isAbove(many[2]!.getTime(), Date.now() + 23 * 3600_000, "the ceiling's 24 h window")
    assert.deepEqual(await blockedUntilMany([]), [])
  })
})
