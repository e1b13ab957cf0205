import { test } from '@japa/runner'
import {
  ArticleQueryService,
  type ArticleListFilters,
} from '#services/public/article_query_service'
import { CLOCK, statementKey } from '#services/public/answer_cache'
import { ArticleFactory } from '#database/factories/article_factory'
import { withRealCommits } from '#tests/helpers/database'

/**
 * The public list's caches (the count cache, the keyword search cache) are keyed by the
 * statements the list sends, not by a list of filters written by hand: a filter added to the
 * query is in the keys by construction.
 */

/** The service with one more filter in its WHERE clause, as a future change would add one. */
class WithoutSlug extends ArticleQueryService {
  constructor(protected slug: string) {
    super()
  }

  protected where(filters: ArticleListFilters) {
    const where = super.where(filters)
    return { sql: `${where.sql} AND a.slug <> ?`, bindings: [...where.bindings, this.slug] }
  }
}

const service = new ArticleQueryService()

test.group('Public articles: cache keys come from the statements', () => {
  test('the same filters share their keys; the key is the statement without the clock', ({
    assert,
  }) => {
    const filters = { category: 'news', keyword: 'release', pageNum: 2, pageSize: 5 } as const
    assert.deepEqual(service.cacheKeys({ ...filters }), service.cacheKeys({ ...filters }))
    // Defaults filled in or given: the same statements, the same keys.
    assert.deepEqual(service.cacheKeys({}), service.cacheKeys({ pageNum: 1, sort: 'newest' }))
    // The clock is the only binding left out: two moments give the same statement text.
    const statements = service.statements(filters, CLOCK)
    assert.equal(service.cacheKeys(filters).count, statementKey(statements.count))
    assert.equal(service.cacheKeys(filters).page, statementKey(statements.page))
    const now = service.statements(filters, '2026-01-01 00:00:00')
    assert.equal(now.count.sql, statements.count.sql)
    assert.equal(now.page.sql, statements.page.sql)
  })

  test('a filter added to the query changes the keys; its bindings are in them', ({ assert }) => {
    for (const filters of [{}, { category: 'news' }, { keyword: 'x', pageSize: 3 }] as const) {
      const plain = service.cacheKeys(filters)
      const filtered = new WithoutSlug('a').cacheKeys(filters)
      assert.notEqual(filtered.count, plain.count)
      assert.notEqual(filtered.page, plain.page)
      // Same text, another value: another key.
      assert.notEqual(new WithoutSlug('b').cacheKeys(filters).count, filtered.count)
      assert.equal(new WithoutSlug('a').cacheKeys(filters).count, filtered.count)
    }
  })

  test('every filter of today is in the keys: category, keyword; and the page ones in the page key', ({
    assert,
  }) => {
    const base: ArticleListFilters = { category: 'news', keyword: 'release' }
    const count = (filters: ArticleListFilters) => service.cacheKeys(filters).count
    const page = (filters: ArticleListFilters) => service.cacheKeys(filters).page
    assert.notEqual(count(base), count({ ...base, category: 'guide' }))
    assert.notEqual(count(base), count({ ...base, keyword: 'releases' }))
    assert.notEqual(count(base), count({ category: 'news' }))
    // A keyword's LIKE metacharacters are escaped: `a%` and `a\%` are different searches.
    assert.notEqual(count({ keyword: 'a%' }), count({ keyword: 'a\\%' }))
    // The total does not depend on the page or its order: one count serves them all.
    assert.equal(count(base), count({ ...base, pageNum: 3, pageSize: 50, sort: 'oldest' }))
    // The page does.
    assert.notEqual(page(base), page({ ...base, pageNum: 2 }))
    assert.notEqual(page(base), page({ ...base, pageSize: 50 }))
    assert.notEqual(page(base), page({ ...base, sort: 'oldest' }))
    assert.notEqual(page(base), page({ ...base, category: 'guide' }))
  })
})

test.group('Public articles: a filter added to the query gets its own cached count', (group) => {
  withRealCommits(group)

  test('the service with one more filter is not served the count of the one without', async ({
    assert,
  }) => {
    await ArticleFactory.createMany(2)
    await ArticleFactory.merge({ slug: 'left-out' }).create()
    // pageSize 1: full pages, so every total comes from the count cache or a count.
    for (let round = 0; round < 2; round++) {
      assert.equal((await service.list({ pageSize: 1 })).total, 3)
      assert.equal((await new WithoutSlug('left-out').list({ pageSize: 1 })).total, 2)
      assert.equal((await new WithoutSlug('absent').list({ pageSize: 1 })).total, 3)
    }
  })
})
