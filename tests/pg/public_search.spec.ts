import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import emitter from '@adonisjs/core/services/emitter'
import { PUBLIC_CONNECTION } from '#config/database'
import { isolate, withRealCommits } from '#tests/helpers/database'
import { superAdminUser } from '#tests/helpers/auth'
import { apiTokenFor } from '#tests/helpers/api_tokens'
import { loadArticles } from '../../commands/load_articles.js'

type Captured = { sql: string; bindings: unknown[] }

/** The SQL texts and bindings a piece of work sends, as the db:query event reports them. */
async function captureQueries(work: () => Promise<unknown>) {
  const queries: Captured[] = []
  const listener = (query: any) => queries.push({ sql: query.sql, bindings: query.bindings })
  emitter.on('db:query', listener)
  try {
    await work()
  } finally {
    emitter.off('db:query', listener)
  }
  return queries
}

type PlanNode = {
  'Node Type': string
  'Relation Name'?: string
  'Index Name'?: string
  'Plans'?: PlanNode[]
}

/** Every node of a plan tree. */
function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)]
}

/** The nodes of EXPLAIN (FORMAT JSON) of a captured statement, on the public module's connection. */
async function explain({ sql, bindings }: Captured): Promise<PlanNode[]> {
  const knex = db.connection(PUBLIC_CONNECTION).getReadClient()
  const connection = await knex.client.acquireConnection()
  try {
    const result = await connection.query({
      text: `EXPLAIN (FORMAT JSON) ${sql}`,
      values: bindings,
    })
    return nodes(result.rows[0]['QUERY PLAN'][0].Plan)
  } finally {
    await knex.client.releaseConnection(connection)
  }
}

test.group('Public keyword search on PostgreSQL', (group) => {
  withRealCommits(group)

  test('page and count of a keyword search read the trigram indexes, not the table', async ({
    client,
    assert,
  }) => {
    await loadArticles(db, 20_000)
    await db.rawQuery('ANALYZE articles')

    const queries = await captureQueries(async () => {
      // Page 2 of no match: an empty page past the start, so the total is counted too.
      const response = await client.get('/api/articles').qs({ keyword: 'zqxjvw', pageNum: 2 })
      response.assertStatus(200)
      assert.deepEqual(response.body().data, [])
      assert.equal(response.body().meta.total, 0)
    })
    const searches = queries.filter((query) => query.sql.includes('ILIKE'))
    // The page and the count.
    assert.lengthOf(searches, 2, queries.map((query) => query.sql).join('\n'))
    for (const search of searches) {
      const plan = await explain(search)
      const indexes = plan.map((node) => node['Index Name'])
      assert.includeMembers(indexes, ['articles_title_trgm_index', 'articles_summary_trgm_index'])
      const scans = plan.filter(
        (node) => node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'articles'
      )
      assert.lengthOf(scans, 0, 'no sequential scan of articles')
    }
  }).timeout(60_000)

  test('1- and 2-character keywords read the grams index, not the table', async ({
    client,
    assert,
  }) => {
    await loadArticles(db, 20_000)
    // A rare word among them, in a summary.
    await db.rawQuery(
      `UPDATE articles SET summary = summary || ' 权限' WHERE id = (SELECT MAX(id) FROM articles)`
    )
    await db.rawQuery('ANALYZE articles')

    for (const [keyword, total] of [
      ['鑫', 0],
      ['zq', 0],
      ['权限', 1],
      ['权', 1],
    ] as const) {
      const queries = await captureQueries(async () => {
        const response = await client.get('/api/articles').qs({ keyword, pageNum: 2 })
        response.assertStatus(200)
        assert.equal(response.body().meta.total, total, keyword)
      })
      const searches = queries.filter((query) => query.sql.includes('search_grams @>'))
      // The page and the count (page 2 of at most one match: nothing to count from the page).
      assert.lengthOf(searches, 2, queries.map((query) => query.sql).join('\n'))
      for (const search of searches) {
        const plan = await explain(search)
        assert.include(
          plan.map((node) => node['Index Name']),
          'articles_search_grams_index',
          keyword
        )
        const scans = plan.filter(
          (node) => node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'articles'
        )
        assert.lengthOf(scans, 0, `no sequential scan of articles for ${keyword}`)
      }
    }
  }).timeout(60_000)

  test('a public query past the statement timeout is a 503; the admin API keeps answering', async ({
    client,
    assert,
  }) => {
    const admin = await superAdminUser()
    // An operator's long transaction holds the table: public reads wait for the lock.
    const blocker = await db.transaction()
    await blocker.rawQuery('LOCK TABLE articles IN ACCESS EXCLUSIVE MODE')
    try {
      const started = Date.now()
      // More requests than the public pool has connections (4): the rest queue for one.
      const publicCalls = Array.from({ length: 6 }, () =>
        client.get('/api/articles').qs({ pageNum: 2 })
      )
      // Meanwhile an administrator's requests use the main pool, untouched by the public one.
      for (let i = 0; i < 3; i++) {
        const me = await client.get('/api/auth/me').loginAs(admin)
        me.assertStatus(200)
      }
      const meTook = Date.now() - started
      assert.isBelow(meTook, 1500, `/me took ${meTook} ms while the public pool was stuck`)

      for (const response of await Promise.all(publicCalls)) {
        response.assertStatus(503)
        assert.deepEqual(response.body(), {
          errors: [{ code: 'E_UNAVAILABLE', message: 'The service is temporarily unavailable' }],
        })
      }
    } finally {
      await blocker.rollback()
    }
    ;(await client.get('/api/articles')).assertStatus(200)
  }).timeout(30_000)
})

test.group('Prepared statements on PostgreSQL', (group) => {
  // One connection for the whole test (the global transaction's), so pg_prepared_statements,
  // which is per connection, shows what the guard prepared on it.
  isolate(group)

  test('the guard and the access snapshot run as named statements', async ({ client, assert }) => {
    const admin = await superAdminUser()
    ;(await client.get('/api/auth/me').loginAs(admin)).assertStatus(200)
    const { rows } = await db.rawQuery(
      `SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'q\\_%'`
    )
    const texts = rows.map((row: { statement: string }) => row.statement)
    assert.isTrue(
      texts.some((text: string) =>
        /FROM unnest\(\$1::int\[\], \$2::text\[\]\) WITH ORDINALITY/.test(text)
      ),
      texts.join('\n---\n')
    )
    assert.isTrue(texts.some((text: string) => text.includes('WITH RECURSIVE granted')))

    // An API token request: its own statement (token, owner, access version), named too.
    const { token } = await apiTokenFor(admin, ['system:user:list'])
    ;(await client.get('/api/admin/users').bearerToken(token)).assertStatus(200)
    const after = await db.rawQuery(`SELECT statement FROM pg_prepared_statements`)
    assert.isTrue(
      after.rows.some((row: { statement: string }) =>
        /FROM api_tokens t JOIN users ON users.id = t.user_id\s+WHERE t.token_hash = \$1/.test(
          row.statement
        )
      )
    )
  })
})
