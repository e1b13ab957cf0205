import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import proxyAddr from 'proxy-addr'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import { http } from '#config/app'
import { ArticleFactory } from '#database/factories/article_factory'
import { withRealCommits } from '#tests/helpers/database'
import { countQueries } from '#tests/helpers/auth'
import searchGate from '#services/public/search_gate'
import { searches } from '#services/public/article_query_service'

const UNAVAILABLE = {
  errors: [{ code: 'E_UNAVAILABLE', message: 'The service is temporarily unavailable' }],
}

/**
 * Requests "from" chosen addresses: the test client connects over loopback, and for these tests
 * loopback is a trusted proxy, so X-Forwarded-For names the client (as TRUSTED_PROXIES=127.0.0.1
 * does in production; the server reads the same config object on every request).
 */
function trustLoopback(group: Parameters<typeof withRealCommits>[0]) {
  const saved = http.trustProxy
  group.each.setup(() => {
    http.trustProxy = proxyAddr.compile('loopback')
    return () => {
      http.trustProxy = saved
    }
  })
}

/** Holds the gate's running places: resolves `release` to free them. */
function holdGate() {
  let release!: () => void
  const held = searchGate.run(() => new Promise<void>((resolve) => (release = resolve)))
  return { held, release: () => release() }
}

/** Waits until the gate has `waiting` searches queued. */
async function untilWaiting(waiting: number) {
  for (let i = 0; searchGate.load.waiting < waiting && i < 1000; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  if (searchGate.load.waiting !== waiting) {
    throw new Error(`expected ${waiting} waiting, got ${JSON.stringify(searchGate.load)}`)
  }
}

/** Waits until `ip` holds `held` places at the gate. */
async function untilHeld(ip: string, held: number) {
  for (let i = 0; searchGate.heldBy(ip) < held && i < 1000; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  if (searchGate.heldBy(ip) !== held) {
    throw new Error(`expected ${ip} to hold ${held}, got ${searchGate.heldBy(ip)}`)
  }
}

function searchFrom(client: ApiClient, address: string, keyword: string) {
  return client.get('/api/articles').qs({ keyword }).header('x-forwarded-for', address)
}

/** Only the statements that search (the version read has no LIKE). */
const searchStatements = (queries: string[]) => queries.filter((sql) => /\bI?LIKE\b/.test(sql))

test.group('Public search: fair share of the gate per address', (group) => {
  withRealCommits(group)
  trustLoopback(group)
  const saved = {
    concurrency: searchGate.concurrency,
    queue: searchGate.queue,
    perAddress: searchGate.perAddress,
  }
  group.each.setup(() => {
    searchGate.concurrency = 1
    searchGate.queue = 8
    searchGate.perAddress = 2
  })
  group.each.teardown(() => {
    Object.assign(searchGate, saved)
  })

  test('one address past its share gets 503; another address still queues and is answered', async ({
    client,
    assert,
  }) => {
    await ArticleFactory.merge({ title: 'Fair share of the planner' }).create()
    const gate = holdGate()
    try {
      // The flooding address takes its two places (different keywords: no cached answer).
      const flood = [
        searchFrom(client, '203.0.113.7', 'planner').send(),
        searchFrom(client, '203.0.113.7', 'share').send(),
      ]
      await untilWaiting(2)
      assert.equal(searchGate.heldBy('203.0.113.7'), 2)

      const shed = await searchFrom(client, '203.0.113.7', 'fair')
      shed.assertStatus(503)
      assert.deepEqual(shed.body(), UNAVAILABLE)
      assert.equal(shed.header('retry-after'), '1')

      // The queue has room (2 of 8 waiting): a bystander is queued, not refused.
      const bystander = searchFrom(client, '198.51.100.9', 'fair').send()
      await untilWaiting(3)
      assert.equal(searchGate.heldBy('198.51.100.9'), 1)

      gate.release()
      await gate.held
      const answered = await bystander
      answered.assertStatus(200)
      assert.deepEqual(
        answered.body().data.map((row: { title: string }) => row.title),
        ['Fair share of the planner']
      )
      for (const response of await Promise.all(flood)) response.assertStatus(200)
    } finally {
      gate.release()
      await gate.held
    }
    // Places are given back: the flooding address searches again.
    assert.deepEqual(searchGate.load, { active: 0, waiting: 0 })
    assert.equal(searchGate.heldBy('203.0.113.7'), 0)
    ;(await searchFrom(client, '203.0.113.7', 'fair')).assertStatus(200)
  })

  test('IPv6 addresses of one /64 share one share; another /64 has its own', async ({
    client,
    assert,
  }) => {
    const gate = holdGate()
    try {
      const flood = [
        searchFrom(client, '2001:db8:a:b::1', 'first').send(),
        searchFrom(client, '2001:db8:a:b:ffff:eeee:dddd:2', 'second').send(),
      ]
      await untilWaiting(2)
      assert.equal(searchGate.heldBy('2001:db8:a:b::99'), 2)

      const shed = await searchFrom(client, '2001:0db8:000a:000b:1234::3', 'third')
      shed.assertStatus(503)
      assert.equal(shed.header('retry-after'), '1')

      const neighbour = searchFrom(client, '2001:db8:a:c::1', 'third').send()
      await untilWaiting(3)
      gate.release()
      await gate.held
      ;(await neighbour).assertStatus(200)
      for (const response of await Promise.all(flood)) response.assertStatus(200)
    } finally {
      gate.release()
      await gate.held
    }
  })

  test('a flood from 120 addresses: a bystander is queued, stays queued and is answered', async ({
    client,
    assert,
  }) => {
    await ArticleFactory.merge({ title: 'Bystander reading' }).create()
    const arrivals = () => searchGate.stats.admitted + searchGate.stats.refused
    /** Each of 120 addresses asks `times` (new keywords: nothing cached); all have been seen. */
    const flood = async (round: string, times: number) => {
      const before = arrivals()
      const sent = []
      for (let i = 0; i < 120; i++) {
        const address = `10.9.${Math.floor(i / 100)}.${(i % 100) + 1}`
        for (let n = 0; n < times; n++)
          sent.push(searchFrom(client, address, `${round}-${i}-${n}`).send())
      }
      for (let i = 0; arrivals() < before + sent.length && i < 2000; i++) {
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
      assert.equal(arrivals(), before + sent.length)
      return sent
    }
    const bystander = '198.51.100.77'
    const floods: Promise<{ status(): number }>[] = []
    for (let round = 1; round <= 2; round++) {
      const gate = holdGate()
      try {
        floods.push(...(await flood(`a${round}`, 2)))
        assert.equal(searchGate.load.waiting, searchGate.queue)
        const evicted = searchGate.stats.evicted
        // Other keywords each round (a cached answer would not enter the gate), all matching.
        const keyword = ['bystander', 'reading'][round - 1]
        const mine = searchFrom(client, bystander, keyword).send()
        await untilHeld(bystander, 1)
        // It took a flooder's place (the queue stays at its bound), and keeps it under more flood.
        assert.equal(searchGate.stats.evicted, evicted + 1)
        assert.equal(searchGate.load.waiting, searchGate.queue)
        floods.push(...(await flood(`b${round}`, 1)))
        assert.equal(searchGate.heldBy(bystander), 1)
        gate.release()
        await gate.held
        const answer = await mine
        answer.assertStatus(200)
        assert.deepEqual(
          answer.body().data.map((row: { title: string }) => row.title),
          ['Bystander reading']
        )
      } finally {
        gate.release()
        await gate.held
      }
    }
    // The flood itself was refused for the most part (at most 2 x 8 of each round's 360 got in).
    const statuses = (await Promise.all(floods)).map((response) => response.status())
    assert.sameMembers([...new Set(statuses)], [200, 503])
    assert.isAtLeast(statuses.filter((status) => status === 503).length, 2 * (360 - 16))
    assert.deepEqual(searchGate.load, { active: 0, waiting: 0 })
  })

  test('the shared queue bound still holds for everyone', async ({ client, assert }) => {
    searchGate.queue = 2
    const gate = holdGate()
    try {
      const queued = [
        searchFrom(client, '192.0.2.1', 'alpha').send(),
        searchFrom(client, '192.0.2.2', 'bravo').send(),
      ]
      await untilWaiting(2)
      const full = await searchFrom(client, '192.0.2.3', 'charlie')
      full.assertStatus(503)
      assert.deepEqual(full.body(), UNAVAILABLE)
      gate.release()
      await gate.held
      for (const response of await Promise.all(queued)) response.assertStatus(200)
    } finally {
      gate.release()
      await gate.held
    }
  })
})

test.group('Public search: cached answers per query and articles version', (group) => {
  withRealCommits(group)
  trustLoopback(group)
  const saved = { concurrency: searchGate.concurrency, queue: searchGate.queue }
  group.each.teardown(() => {
    Object.assign(searchGate, saved)
  })

  test('the same search twice runs the search once; a write is seen on the next request', async ({
    client,
    assert,
  }) => {
    await ArticleFactory.merge({ title: 'Vacuum tuning notes' }).createMany(2)
    const search = () => client.get('/api/articles').qs({ keyword: 'vacuum', pageSize: 5 })

    const first = await countQueries(search)
    first.result.assertStatus(200)
    assert.equal(first.result.body().meta.total, 2)
    assert.lengthOf(first.queries, 1, first.queries.join('\n'))
    assert.lengthOf(searchStatements(first.queries), 1)

    // Again: one primary-key read of the version, and the answer from memory.
    const second = await countQueries(search)
    assert.deepEqual(second.result.body(), first.result.body())
    assert.equal(second.result.header('etag'), first.result.header('etag'))
    assert.lengthOf(second.queries, 1, second.queries.join('\n'))
    assert.lengthOf(searchStatements(second.queries), 0, second.queries.join('\n'))
    assert.include(second.queries[0], 'articles_version')

    // Other filters are other answers.
    const other = await countQueries(() =>
      client.get('/api/articles').qs({ keyword: 'vacuum', pageSize: 5, sort: 'oldest' })
    )
    assert.lengthOf(searchStatements(other.queries), 1)

    // A raw SQL write (no model, no service): the trigger moves the version, the next search runs.
    const slug = first.result.body().data[0].slug
    await db.from('articles').where('slug', slug).update({ title: 'Renamed by an operator' })
    const afterEdit = await countQueries(search)
    assert.equal(afterEdit.result.body().meta.total, 1)
    assert.lengthOf(searchStatements(afterEdit.queries), 1)

    await db.from('articles').update({ status: 'archived' })
    const afterArchive = await search()
    assert.equal(afterArchive.body().meta.total, 0)
    assert.deepEqual(afterArchive.body().data, [])
  })

  test('a cached search is answered while the gate is full; a new one is refused', async ({
    client,
    assert,
  }) => {
    await ArticleFactory.merge({ title: 'Popular topic' }).create()
    ;(await searchFrom(client, '198.51.100.20', 'popular')).assertStatus(200)

    searchGate.concurrency = 1
    searchGate.queue = 1
    const gate = holdGate()
    try {
      const waiting = searchFrom(client, '192.0.2.50', 'flood one').send()
      await untilWaiting(1)
      const refused = await searchFrom(client, '192.0.2.51', 'flood two')
      refused.assertStatus(503)

      const bystander = await searchFrom(client, '198.51.100.21', 'popular')
      bystander.assertStatus(200)
      assert.deepEqual(
        bystander.body().data.map((row: { title: string }) => row.title),
        ['Popular topic']
      )
      gate.release()
      await gate.held
      ;(await waiting).assertStatus(200)
    } finally {
      gate.release()
      await gate.held
    }
  })

  test('answers are cached per version only: a search after a write does not reuse them', async ({
    client,
    assert,
  }) => {
    await ArticleFactory.merge({ title: 'Index bloat' }).create()
    const search = () => client.get('/api/articles').qs({ keyword: 'bloat' })
    assert.equal((await search()).body().meta.total, 1)
    assert.equal(searches.held.size.entries, 1)
    await ArticleFactory.merge({ title: 'More index bloat' }).create()
    const after = await countQueries(search)
    assert.equal(after.result.body().meta.total, 2)
    assert.lengthOf(searchStatements(after.queries), 1)
  })

  test('a cached search ends when a scheduled article falls due, with no write', async ({
    client,
    assert,
  }) => {
    await ArticleFactory.merge({ title: 'Release calendar' }).create()
    // Two whole seconds ahead: SQLite compares stored text at second precision.
    const due = DateTime.utc().startOf('second').plus({ seconds: 2 })
    await ArticleFactory.merge({ title: 'Release day', publishedAt: due }).create()
    const search = () => client.get('/api/articles').qs({ keyword: 'release' })

    assert.equal((await search()).body().meta.total, 1)
    const cached = await countQueries(search)
    assert.equal(cached.result.body().meta.total, 1)
    assert.lengthOf(searchStatements(cached.queries), 0)

    await new Promise((resolve) => setTimeout(resolve, due.diffNow().toMillis() + 1100))
    const after = await countQueries(search)
    assert.equal(after.result.body().meta.total, 2)
    assert.lengthOf(searchStatements(after.queries), 1)
  })
})
