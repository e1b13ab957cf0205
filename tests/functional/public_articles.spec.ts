import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import Article from '#models/article'
import User from '#models/user'
import { ArticleFactory } from '#database/factories/article_factory'
import { withRealCommits } from '#tests/helpers/database'
import { freePort, startAppProcess } from '#tests/helpers/app_process'
import searchGate from '#services/public/search_gate'
import { loadArticles } from '../../commands/load_articles.js'

const LIST_KEYS = [
  'slug',
  'title',
  'summary',
  'category',
  'coverUrl',
  'authorName',
  'publishedAt',
  'updatedAt',
]
const DETAIL_KEYS = [...LIST_KEYS, 'content']
const NOT_FOUND = { errors: [{ code: 'E_NOT_FOUND', message: 'Article not found' }] }

async function admin() {
  return User.findByOrFail('account', 'admin')
}

/** The hidden cases next to a visible one; returns them by name. */
async function mixedArticles() {
  const author = await admin()
  const visible = await ArticleFactory.merge({ authorId: author.id }).create()
  const draft = await ArticleFactory.apply('draft').create()
  const archived = await ArticleFactory.apply('archived').create()
  const scheduled = await ArticleFactory.apply('scheduled').create()
  // Due in a few seconds: hidden now on both dialects (SQLite compares the text at second precision).
  const soon = await ArticleFactory.merge({
    publishedAt: DateTime.utc().plus({ seconds: 5 }),
  }).create()
  return { visible, draft, archived, scheduled, soon }
}

/** The slugs a keyword search returns, sorted (200 expected). */
async function slugsFor(client: ApiClient, keyword: string) {
  const response = await client.get('/api/articles').qs({ keyword })
  response.assertStatus(200)
  return response
    .body()
    .data.map((a: { slug: string }) => a.slug)
    .sort()
}

test.group('Public articles: list', (group) => {
  withRealCommits(group)

  test('lists only published, already-due articles with exactly the public fields', async ({
    client,
    assert,
  }) => {
    const { visible, draft, archived, scheduled, soon } = await mixedArticles()

    const response = await client.get('/api/articles')
    response.assertStatus(200)
    const body = response.body()
    assert.deepEqual(Object.keys(body).sort(), ['data', 'meta'])
    assert.deepEqual(body.meta, { total: 1, pageNum: 1, pageSize: 10, lastPage: 1 })
    assert.lengthOf(body.data, 1)
    assert.sameMembers(Object.keys(body.data[0]), LIST_KEYS)
    assert.deepEqual(body.data[0], {
      slug: visible.slug,
      title: visible.title,
      summary: visible.summary,
      category: visible.category,
      coverUrl: visible.coverUrl,
      authorName: 'Administrator',
      publishedAt: visible.publishedAt!.toISO(),
      updatedAt: body.data[0].updatedAt,
    })
    assert.isTrue(DateTime.fromISO(body.data[0].updatedAt).isValid)

    // The hidden ones are still in the database: the query hid them, nothing deleted them.
    const stored = await Article.query()
      .whereIn('id', [draft.id, archived.id, scheduled.id, soon.id])
      .count('* as total')
    assert.equal(Number(stored[0].$extras.total), 4)
    const raw = JSON.stringify(body)
    for (const hidden of [draft, archived, scheduled, soon]) assert.notInclude(raw, hidden.slug)
    assert.notInclude(raw, visible.internalNote!)
    assert.notInclude(raw, '"admin"')
  })

  test('an article becomes visible when its publication time has come', async ({
    client,
    assert,
  }) => {
    const scheduled = await ArticleFactory.apply('scheduled').create()
    let response = await client.get('/api/articles')
    assert.deepEqual(response.body().data, [])

    scheduled.publishedAt = DateTime.utc().minus({ seconds: 1 })
    await scheduled.save()
    response = await client.get('/api/articles')
    assert.deepEqual(
      response.body().data.map((a: any) => a.slug),
      [scheduled.slug]
    )
  })

  test('an empty list is a 200 with total 0 and lastPage 1', async ({ client, assert }) => {
    const response = await client.get('/api/articles')
    response.assertStatus(200)
    assert.deepEqual(response.body(), {
      data: [],
      meta: { total: 0, pageNum: 1, pageSize: 10, lastPage: 1 },
    })
  })

  test('orders by publishedAt desc, id desc; sort=oldest reverses both', async ({
    client,
    assert,
  }) => {
    const now = DateTime.utc().startOf('second')
    const older = await ArticleFactory.merge({ publishedAt: now.minus({ hours: 2 }) }).create()
    const tieA = await ArticleFactory.merge({ publishedAt: now.minus({ hours: 1 }) }).create()
    const tieB = await ArticleFactory.merge({ publishedAt: now.minus({ hours: 1 }) }).create()
    const newest = await ArticleFactory.merge({ publishedAt: now.minus({ minutes: 1 }) }).create()

    const newestFirst = await client.get('/api/articles')
    assert.deepEqual(
      newestFirst.body().data.map((a: any) => a.slug),
      [newest.slug, tieB.slug, tieA.slug, older.slug]
    )
    const oldestFirst = await client.get('/api/articles').qs({ sort: 'oldest' })
    assert.deepEqual(
      oldestFirst.body().data.map((a: any) => a.slug),
      [older.slug, tieA.slug, tieB.slug, newest.slug]
    )
  })

  test('walking every page of equal timestamps gives each article once, in order', async ({
    client,
    assert,
  }) => {
    const at = DateTime.utc().minus({ hours: 1 }).startOf('second')
    const created = await ArticleFactory.merge({ publishedAt: at }).createMany(23)
    await ArticleFactory.apply('draft').createMany(3)
    const byIdDesc = [...created].sort((a, b) => b.id - a.id).map((a) => a.slug)

    for (const [sort, expected] of [
      ['newest', byIdDesc],
      ['oldest', [...byIdDesc].reverse()],
    ] as const) {
      const seen: string[] = []
      for (let pageNum = 1; pageNum <= 5; pageNum++) {
        const response = await client.get('/api/articles').qs({ pageNum, pageSize: 5, sort })
        response.assertStatus(200)
        assert.deepEqual(response.body().meta, { total: 23, pageNum, pageSize: 5, lastPage: 5 })
        seen.push(...response.body().data.map((a: any) => a.slug))
      }
      assert.deepEqual(seen, expected, `walk with sort=${sort}`)
      const past = await client.get('/api/articles').qs({ pageNum: 6, pageSize: 5, sort })
      assert.deepEqual(past.body().data, [])
    }
  })

  test('pageSize is bounded at 50', async ({ client, assert }) => {
    await ArticleFactory.createMany(55)
    const full = await client.get('/api/articles').qs({ pageSize: 50 })
    full.assertStatus(200)
    assert.lengthOf(full.body().data, 50)
    assert.deepEqual(full.body().meta, { total: 55, pageNum: 1, pageSize: 50, lastPage: 2 })

    const over = await client.get('/api/articles').qs({ pageSize: 51 })
    over.assertStatus(422)
    assert.deepEqual(
      over.body().errors.map((e: any) => [e.code, e.field, e.rule]),
      [['E_VALIDATION_ERROR', 'pageSize', 'range']]
    )
  })

  test('keyword matches title or summary case-insensitively, wildcards literally', async ({
    client,
    assert,
  }) => {
    const inTitle = await ArticleFactory.merge({
      title: 'Scaling PostgreSQL',
      summary: 'x',
    }).create()
    const inSummary = await ArticleFactory.merge({
      title: 'Notes',
      summary: 'How we scale postgresql reads',
    }).create()
    const percent = await ArticleFactory.merge({
      title: 'Uptime 100% this year',
      summary: 'y',
    }).create()
    const underscore = await ArticleFactory.merge({
      title: 'The snake_case rule',
      summary: 'z',
    }).create()
    const backslash = await ArticleFactory.merge({
      title: 'Paths like C:\\temp',
      summary: 'w',
    }).create()
    await ArticleFactory.merge({ title: 'Unrelated', summary: 'Nothing here' }).create()
    await ArticleFactory.apply('draft').merge({ title: 'PostgreSQL draft' }).create()

    const search = async (keyword: string) => {
      const response = await client.get('/api/articles').qs({ keyword })
      response.assertStatus(200)
      return response
        .body()
        .data.map((a: any) => a.slug)
        .sort()
    }
    assert.deepEqual(await search('POSTGRESQL'), [inTitle.slug, inSummary.slug].sort())
    assert.deepEqual(await search('  postgresql  '), [inTitle.slug, inSummary.slug].sort())
    // Wildcards inside a keyword match literally.
    assert.deepEqual(await search('00%'), [percent.slug])
    assert.deepEqual(await search('e_c'), [underscore.slug])
    assert.deepEqual(await search(':\\t'), [backslash.slug])
    assert.deepEqual(await search('100%'), [percent.slug])
    assert.deepEqual(await search('%%%'), [])
    const everyPublished = (await Article.query().where('status', 'published'))
      .map((a) => a.slug)
      .sort()
    assert.deepEqual(await search(''), everyPublished)
    assert.deepEqual(await search('   '), everyPublished)
  })

  test('a 2-character Chinese keyword finds title and summary matches, and nothing across them', async ({
    client,
    assert,
  }) => {
    const inTitle = await ArticleFactory.merge({ title: '权限管理入门', summary: 'x' }).create()
    const inSummary = await ArticleFactory.merge({
      title: 'Notes',
      summary: '角色与权限的设计',
    }).create()
    // The pair split between title and summary, or by a space, is not the word.
    await ArticleFactory.merge({ title: '系统权', summary: '限制' }).create()
    await ArticleFactory.merge({ title: '权 限', summary: 'y' }).create()
    await ArticleFactory.apply('draft').merge({ title: '权限草稿' }).create()

    assert.deepEqual(await slugsFor(client, '权限'), [inTitle.slug, inSummary.slug].sort())
    assert.deepEqual(await slugsFor(client, ' 权限 '), [inTitle.slug, inSummary.slug].sort())
    assert.deepEqual(await slugsFor(client, '限权'), [])
    // A raw SQL write is searched as it stands now (PostgreSQL: the generated column follows).
    await db.from('articles').where('id', inTitle.id).update({ title: '菜单管理' })
    assert.deepEqual(await slugsFor(client, '权限'), [inSummary.slug])
    assert.deepEqual(await slugsFor(client, '菜单'), [inTitle.slug])
  })

  test('a 1-character keyword: Chinese, Latin case-insensitively, wildcards literally', async ({
    client,
    assert,
  }) => {
    const chinese = await ArticleFactory.merge({ title: '文章', summary: '权' }).create()
    const latin = await ArticleFactory.merge({ title: 'Q and A', summary: 'k' }).create()
    const percent = await ArticleFactory.merge({ title: 'Up 100%', summary: 'k' }).create()
    const underscore = await ArticleFactory.merge({ title: 'snake_case', summary: 'k' }).create()
    const tagged = await ArticleFactory.merge({ title: 'C#', summary: 'k' }).create()

    assert.deepEqual(await slugsFor(client, '权'), [chinese.slug])
    assert.deepEqual(await slugsFor(client, '文'), [chinese.slug])
    assert.deepEqual(await slugsFor(client, 'q'), [latin.slug])
    assert.deepEqual(await slugsFor(client, 'Q'), [latin.slug])
    assert.deepEqual(await slugsFor(client, '%'), [percent.slug])
    assert.deepEqual(await slugsFor(client, '_'), [underscore.slug])
    assert.deepEqual(await slugsFor(client, 'c#'), [tagged.slug])
    assert.deepEqual(await slugsFor(client, '0%'), [percent.slug])
    assert.deepEqual(await slugsFor(client, '鑫'), [])
    // One character that is two UTF-16 units (outside the Basic Multilingual Plane).
    const astral = await ArticleFactory.merge({ title: '𠀀 字', summary: 'k' }).create()
    assert.deepEqual(await slugsFor(client, '𠀀'), [astral.slug])
    assert.deepEqual(await slugsFor(client, '𠀀字'), [])
    // A NUL character alone is refused like anywhere else (PostgreSQL would fail on it).
    const nul = await client.get('/api/articles').qs({ keyword: '\u0000' })
    nul.assertStatus(422)
    assert.equal(nul.body().errors[0].field, 'keyword')
    // Anywhere in the URL (a key, a route param), however it is encoded; `%2500` is no NUL.
    for (const [url, field] of [
      ['/api/articles?pageNum=1&keyword=a%00', 'keyword'],
      ['/api/articles?a%00=1', 'a\u0000'],
      ['/api/articles?tags[]=%00', 'tags.0'],
      ['/api/articles/a%00b', 'slug'],
    ]) {
      const refused = await client.get(url)
      refused.assertStatus(422)
      assert.include(refused.body().errors[0], { field, rule: 'noNullBytes' }, url)
    }
    ;(await client.get('/api/articles?keyword=%2500')).assertStatus(200)
    ;(await client.get('/api/articles/a%2500b')).assertStatus(404)
  })

  test('category filters the list and counts only matches', async ({ client, assert }) => {
    const guides = await ArticleFactory.merge({ category: 'guide' }).createMany(3)
    await ArticleFactory.merge({ category: 'news' }).createMany(2)
    await ArticleFactory.apply('draft').merge({ category: 'guide' }).create()

    const response = await client.get('/api/articles').qs({ category: 'guide' })
    response.assertStatus(200)
    assert.sameMembers(
      response.body().data.map((a: any) => a.slug),
      guides.map((a) => a.slug)
    )
    assert.equal(response.body().meta.total, 3)
  })

  test('a bad Authorization header is ignored', async ({ client, assert }) => {
    const article = await ArticleFactory.create()
    const anonymous = await client.get('/api/articles')
    const withGarbage = await client
      .get('/api/articles')
      .header('Authorization', 'Bearer not-a-jwt')
    withGarbage.assertStatus(200)
    assert.deepEqual(withGarbage.body(), anonymous.body())

    const detail = await client
      .get(`/api/articles/${article.slug}`)
      .header('Authorization', 'Basic Zm9vOmJhcg==')
    detail.assertStatus(200)
  })

  test('the list is cacheable for a short time', async ({ client }) => {
    const response = await client.get('/api/articles')
    response.assertStatus(200)
    response.assertHeader('cache-control', 'public, max-age=30')
  })
})

test.group('Public articles: validation', (group) => {
  withRealCommits(group)

  const cases: [string, Record<string, any> | string, string, string][] = [
    ['pageNum not a number', { pageNum: 'abc' }, 'pageNum', 'number'],
    ['pageNum a decimal', { pageNum: '1.5' }, 'pageNum', 'withoutDecimals'],
    ['pageNum zero', { pageNum: 0 }, 'pageNum', 'min'],
    ['pageNum negative', { pageNum: -3 }, 'pageNum', 'min'],
    ['pageNum huge', { pageNum: '99999999999999999999999' }, 'pageNum', 'pageWindow'],
    ['pageNum in exponent form', { pageNum: '1e3' }, 'pageNum', 'number'],
    ['pageNum in hex', { pageNum: '0x10' }, 'pageNum', 'number'],
    ['pageNum repeated', 'pageNum=1&pageNum=2', 'pageNum', 'number'],
    ['pageNum as an object', 'pageNum[a]=1', 'pageNum', 'number'],
    ['pageSize zero', { pageSize: 0 }, 'pageSize', 'range'],
    ['pageSize negative', { pageSize: -1 }, 'pageSize', 'range'],
    ['pageSize over 50', { pageSize: 51 }, 'pageSize', 'range'],
    ['pageSize a decimal', { pageSize: '2.5' }, 'pageSize', 'withoutDecimals'],
    ['pageSize repeated', 'pageSize=1&pageSize=2', 'pageSize', 'number'],
    ['past the page window', { pageNum: 201, pageSize: 50 }, 'pageNum', 'pageWindow'],
    ['past the page window with the default size', { pageNum: 1001 }, 'pageNum', 'pageWindow'],
    ['keyword over 100 characters', { keyword: 'k'.repeat(101) }, 'keyword', 'maxLength'],
    ['keyword repeated', 'keyword=a&keyword=b', 'keyword', 'string'],
    ['unknown category', { category: 'gossip' }, 'category', 'enum'],
    ['category repeated', 'category=news&category=guide', 'category', 'enum'],
    ['unknown sort', { sort: 'random' }, 'sort', 'enum'],
    ['sort in another case', { sort: 'NEWEST' }, 'sort', 'enum'],
  ]
  for (const [title, query, field, rule] of cases) {
    test(`422 for ${title}`, async ({ client, assert }) => {
      const request = client.get('/api/articles')
      const response = await (typeof query === 'string' ? request.qs(query) : request.qs(query))
      response.assertStatus(422)
      assert.deepEqual(
        response.body().errors.map((e: any) => ({ code: e.code, field: e.field, rule: e.rule })),
        [{ code: 'E_VALIDATION_ERROR', field, rule }]
      )
      assert.isString(response.body().errors[0].message)
    })
  }

  test('several invalid parameters: one error per field', async ({ client, assert }) => {
    const response = await client
      .get('/api/articles')
      .qs('pageNum=0&pageSize=1&pageSize=3&keyword=' + 'x'.repeat(150) + '&category=nope&sort=up')
    response.assertStatus(422)
    const fields = response.body().errors.map((e: any) => e.field)
    assert.deepEqual([...fields].sort(), ['category', 'keyword', 'pageNum', 'pageSize', 'sort'])
  })

  test('the edges of the bounds are accepted', async ({ client, assert }) => {
    await ArticleFactory.create()
    for (const query of [
      { pageNum: 200, pageSize: 50 },
      { pageNum: 1000 },
      { pageNum: 10000, pageSize: 1 },
      { pageSize: 1 },
      { keyword: 'k'.repeat(100) },
      { keyword: '', category: '', sort: '' },
      { pageNum: '', pageSize: '' },
      { pageNum: ' 2 ', unknownParameter: 'ignored' },
      { category: 'engineering', sort: 'oldest' },
    ]) {
      const response = await client.get('/api/articles').qs(query)
      assert.equal(response.status(), 200, JSON.stringify(query))
    }
    const defaults = await client.get('/api/articles').qs({ pageNum: '', pageSize: '' })
    assert.deepEqual(defaults.body().meta, { total: 1, pageNum: 1, pageSize: 10, lastPage: 1 })
  })
})

/** VACUUM cannot run inside a transaction: real commits. */
test.group('Public articles: total beyond the page window', (group) => {
  withRealCommits(group)

  test('total is exact up to 10,000 and capped there; lastPage is always requestable', async ({
    client,
    assert,
  }) => {
    await loadArticles(db, 10_010)
    await ArticleFactory.apply('draft').createMany(2)

    const first = await client.get('/api/articles')
    first.assertStatus(200)
    assert.deepEqual(first.body().meta, { total: 10_000, pageNum: 1, pageSize: 10, lastPage: 1000 })

    const odd = await client.get('/api/articles').qs({ pageSize: 7 })
    assert.deepEqual(odd.body().meta, { total: 10_000, pageNum: 1, pageSize: 7, lastPage: 1428 })
    const last = await client.get('/api/articles').qs({ pageNum: 1428, pageSize: 7 })
    last.assertStatus(200)
    assert.lengthOf(last.body().data, 7)

    // Below the cap the count is exact.
    await db
      .from('articles')
      .where('status', 'published')
      .whereIn(
        'id',
        db.from('articles').select('id').where('status', 'published').orderBy('id').limit(15)
      )
      .delete()
    const exact = await client.get('/api/articles')
    assert.equal(exact.body().meta.total, 9_995)
    assert.equal(exact.body().meta.lastPage, 1000)
  })
})

test.group('Public articles: detail', (group) => {
  withRealCommits(group)

  test('a published article with exactly the public fields, content included', async ({
    client,
    assert,
  }) => {
    const author = await admin()
    const article = await ArticleFactory.merge({ authorId: author.id }).create()

    const response = await client.get(`/api/articles/${article.slug}`)
    response.assertStatus(200)
    assert.deepEqual(Object.keys(response.body()), ['data'])
    assert.sameMembers(Object.keys(response.body().data), DETAIL_KEYS)
    assert.equal(response.body().data.content, article.content)
    assert.equal(response.body().data.authorName, 'Administrator')
    assert.notInclude(JSON.stringify(response.body()), article.internalNote!)
    response.assertHeader('cache-control', 'public, max-age=30')
    assert.match(response.header('etag') ?? '', /^"[\w-]+"$/)
  })

  test('an article without author shows authorName null', async ({ client, assert }) => {
    const article = await ArticleFactory.merge({ authorId: null }).create()
    const response = await client.get(`/api/articles/${article.slug}`)
    response.assertStatus(200)
    assert.isNull(response.body().data.authorName)
  })

  test('If-None-Match with the current ETag is a 304; a change gives a new ETag', async ({
    client,
    assert,
  }) => {
    const article = await ArticleFactory.create()
    const first = await client.get(`/api/articles/${article.slug}`)
    const etag = first.header('etag')!
    assert.isString(etag)

    const cached = await client.get(`/api/articles/${article.slug}`).header('If-None-Match', etag)
    cached.assertStatus(304)
    assert.equal(cached.text(), '')
    assert.equal(cached.header('etag'), etag)

    await Article.query().where('id', article.id).update({ title: 'A corrected title' })
    const changed = await client.get(`/api/articles/${article.slug}`).header('If-None-Match', etag)
    changed.assertStatus(200)
    assert.equal(changed.body().data.title, 'A corrected title')
    assert.notEqual(changed.header('etag'), etag)
  })

  test('unknown, draft, archived and scheduled slugs all answer the same 404', async ({
    client,
    assert,
  }) => {
    const { draft, archived, scheduled, soon } = await mixedArticles()
    for (const slug of ['no-such-article', draft.slug, archived.slug, scheduled.slug, soon.slug]) {
      const response = await client.get(`/api/articles/${slug}`)
      assert.equal(response.status(), 404, slug)
      assert.deepEqual(response.body(), NOT_FOUND)
      assert.equal(response.header('cache-control'), 'no-store')
    }
  })

  test('over-long or odd slugs are a 404 or a 422, never a 500', async ({ client, assert }) => {
    await ArticleFactory.create()
    for (const slug of [
      'a'.repeat(161),
      'a'.repeat(5000),
      '%00',
      'abc%00def',
      '%0A',
      "'%20OR%201=1--",
      '..%2F..%2Fetc%2Fpasswd',
      '%25',
      '%5C',
      '%F0%9F%98%80',
      '%20',
    ]) {
      const response = await client.get(`/api/articles/${slug}`)
      assert.oneOf(response.status(), [404, 422], slug)
      assert.oneOf(response.body().errors?.[0]?.code, ['E_NOT_FOUND', 'E_VALIDATION_ERROR'], slug)
    }
    // Malformed percent-encoding never reaches the router: the HTTP server answers 400 itself.
    for (const slug of ['%FF%FE', '%E2%82', '%C0%80']) {
      const response = await client.get(`/api/articles/${slug}`)
      assert.equal(response.status(), 400, slug)
    }
    const long = await client.get(`/api/articles/${'a'.repeat(161)}`)
    long.assertStatus(422)
    assert.equal(long.body().errors[0].field, 'slug')
  })
})

test.group('Public articles: data store failures', (group) => {
  withRealCommits(group)

  test('an unreachable database is a 503 in the error contract, never a 200 or an empty page', async ({
    assert,
  }) => {
    const port = await freePort()
    const instance = await startAppProcess({ DB_CONNECTION: 'pg', PG_PORT: String(port) })
    try {
      for (const path of ['/api/articles', '/api/articles/welcome']) {
        const response = await fetch(`${instance.url}${path}`)
        const body = await response.json()
        assert.equal(response.status, 503, path)
        assert.deepEqual(body, {
          errors: [{ code: 'E_UNAVAILABLE', message: 'The service is temporarily unavailable' }],
        })
        assert.equal(response.headers.get('cache-control'), 'no-store')
      }
    } finally {
      await instance.stop()
    }
  })

  test('a failing query propagates as a 500, not an empty page', async ({ client, assert }) => {
    await ArticleFactory.create()
    await db.rawQuery('ALTER TABLE articles RENAME TO articles_moved_away')
    try {
      for (const path of ['/api/articles', '/api/articles/anything']) {
        const response = await client.get(path)
        assert.equal(response.status(), 500, path)
        assert.deepEqual(response.body(), {
          errors: [{ code: 'E_INTERNAL', message: 'Internal server error' }],
        })
      }
    } finally {
      await db.rawQuery('ALTER TABLE articles_moved_away RENAME TO articles')
    }
  })
})

test.group('Public articles: keyword search throttle', (group) => {
  withRealCommits(group)

  test('keyword searches are limited per address; plain pages are not counted', async ({
    client,
    assert,
  }) => {
    const limit = env.get('LIMIT_SEARCH_PER_MINUTE', 60)
    for (let i = 0; i < limit; i++) {
      const response = await client.get('/api/articles').qs({ keyword: `term${i}` })
      response.assertStatus(200)
    }
    const refused = await client.get('/api/articles').qs({ keyword: 'one more' })
    refused.assertStatus(429)
    assert.deepEqual(refused.body(), {
      errors: [{ code: 'E_TOO_MANY_REQUESTS', message: 'Too many requests, try again later' }],
    })
    assert.isAbove(Number(refused.header('retry-after')), 0)
    // Browsing without a keyword (cached counts, index walk) stays open.
    ;(await client.get('/api/articles')).assertStatus(200)
    ;(await client.get('/api/articles').qs({ keyword: '   ' })).assertStatus(200)
  })
})

test.group('Public articles: search gate', (group) => {
  withRealCommits(group)
  const saved = { concurrency: searchGate.concurrency, queue: searchGate.queue }
  group.each.teardown(() => {
    searchGate.concurrency = saved.concurrency
    searchGate.queue = saved.queue
  })

  test('searches past the running and waiting bound answer 503 at once; plain pages pass', async ({
    client,
    assert,
  }) => {
    await ArticleFactory.merge({ title: 'Gate keeper' }).create()
    searchGate.concurrency = 1
    searchGate.queue = 1

    // One search holds the only running place, a second one waits behind it.
    let release!: () => void
    const held = searchGate.run(() => new Promise<void>((resolve) => (release = resolve)))
    await new Promise((resolve) => setImmediate(resolve))
    const waiting = client.get('/api/articles').qs({ keyword: 'gate' }).send()
    for (let i = 0; searchGate.load.waiting === 0 && i < 500; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    assert.deepEqual(searchGate.load, { active: 1, waiting: 1 })

    const shed = await client.get('/api/articles').qs({ keyword: 'keeper' })
    shed.assertStatus(503)
    assert.deepEqual(shed.body(), {
      errors: [{ code: 'E_UNAVAILABLE', message: 'The service is temporarily unavailable' }],
    })
    assert.equal(shed.header('retry-after'), '1')
    // The gate is for keyword searches only.
    const plain = await client.get('/api/articles')
    plain.assertStatus(200)
    assert.isAbove(plain.body().data.length, 0)

    release()
    await held
    const answered = await waiting
    answered.assertStatus(200)
    assert.deepEqual(
      answered.body().data.map((row: { title: string }) => row.title),
      ['Gate keeper']
    )
    assert.deepEqual(searchGate.load, { active: 0, waiting: 0 })
    ;(await client.get('/api/articles').qs({ keyword: 'keeper' })).assertStatus(200)
  })
})
