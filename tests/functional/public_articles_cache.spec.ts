import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import { ArticleFactory } from '#database/factories/article_factory'
import { withRealCommits } from '#tests/helpers/database'
import { countQueries } from '#tests/helpers/auth'

/** A stored time in the connection's format (SQLite compares 'yyyy-MM-dd HH:mm:ss' text). */
function stored(time: DateTime) {
  return time.toUTC().toFormat(db.connection().dialect.dateTimeFormat)
}

/** Inserts a published, due article with raw SQL: no model, no service, no hook. */
async function insertRaw(slug: string, publishedAt = DateTime.utc().minus({ hours: 1 })) {
  const now = stored(DateTime.utc())
  await db.table('articles').insert({
    slug,
    title: `Raw ${slug}`,
    summary: 'Inserted by an operator',
    content: 'x',
    category: 'news',
    status: 'published',
    published_at: stored(publishedAt),
    created_at: now,
    updated_at: now,
  })
}

test.group('Public articles: the list count cache follows every change', (group) => {
  withRealCommits(group)

  test('unchanged: 1 query per list request; after a raw-SQL write: 3, and the new total', async ({
    client,
    assert,
  }) => {
    await ArticleFactory.createMany(3)
    // pageSize 2: a full page, so the total needs a count (a short page 1 is its own total).
    const page = () => client.get('/api/articles').qs({ pageSize: 2 })
    const first = await page()
    assert.equal(first.body().meta.total, 3)

    const cached = await countQueries(page)
    assert.equal(cached.result.body().meta.total, 3)
    assert.lengthOf(cached.queries, 1, cached.queries.join('\n'))
    // From memory: the one statement is the version read, not the page.
    assert.match(cached.queries[0], /^SELECT version FROM articles_version WHERE id = 1$/)

    await insertRaw('raw-one')
    // The version read that shows the move, the page, its count.
    const moved = await countQueries(page)
    assert.equal(moved.result.body().meta.total, 4)
    assert.lengthOf(moved.queries, 3, moved.queries.join('\n'))

    // Raw updates and deletes count too.
    await db.from('articles').where('slug', 'raw-one').update({ status: 'archived' })
    assert.equal((await page()).body().meta.total, 3)
    await db.from('articles').where('slug', 'raw-one').update({ status: 'published' })
    assert.equal((await page()).body().meta.total, 4)
    await db.from('articles').where('slug', 'raw-one').delete()
    assert.equal((await page()).body().meta.total, 3)
  })

  test('a short page holds the last matches: exact total in 1 query, no count', async ({
    client,
    assert,
  }) => {
    await ArticleFactory.createMany(3)
    for (const [qs, total] of [
      [{}, 3],
      [{ pageSize: 2, pageNum: 2 }, 3],
      [{ keyword: 'zqxjvw' }, 0],
    ] as const) {
      const { result, queries } = await countQueries(() => client.get('/api/articles').qs(qs))
      assert.equal(result.body().meta.total, total)
      assert.lengthOf(queries, 1, queries.join('\n'))
    }
    // Past the end: an empty page cannot tell the total, so it is counted.
    const past = await countQueries(() => client.get('/api/articles').qs({ pageNum: 5 }))
    assert.equal(past.result.body().meta.total, 3)
    assert.lengthOf(past.queries, 2)
  })

  test('counts are cached per filter: a category and a keyword have their own', async ({
    client,
    assert,
  }) => {
    await ArticleFactory.merge({ category: 'guide', title: 'Tuning the planner' }).createMany(2)
    await ArticleFactory.merge({ category: 'news', title: 'Release notes' }).createMany(3)
    // pageSize 1: full pages, so every total comes from the count (cached or not).
    const total = async (qs: Record<string, string>) =>
      (await client.get('/api/articles').qs({ ...qs, pageSize: 1, pageNum: 1 })).body().meta.total
    for (let round = 0; round < 2; round++) {
      assert.equal(await total({}), 5)
      assert.equal(await total({ category: 'guide' }), 2)
      assert.equal(await total({ keyword: 'release' }), 3)
      assert.equal(await total({ category: 'guide', keyword: 'release' }), 0)
    }
    await insertRaw('raw-guide')
    await db.from('articles').where('slug', 'raw-guide').update({ category: 'guide' })
    assert.equal(await total({ category: 'guide' }), 3)
    assert.equal(await total({}), 6)
  })

  test('a scheduled article falling due shows, and is counted, without any write', async ({
    client,
    assert,
  }) => {
    await ArticleFactory.createMany(2)
    // Two whole seconds ahead: SQLite compares stored text at second precision.
    const due = DateTime.utc().startOf('second').plus({ seconds: 2 })
    await insertRaw('falls-due', due)

    const before = await client.get('/api/articles').qs({ pageSize: 1 })
    assert.equal(before.body().meta.total, 2)
    assert.notInclude(
      before.body().data.map((a: any) => a.slug),
      'falls-due'
    )

    await new Promise((resolve) => setTimeout(resolve, due.diffNow().toMillis() + 1100))
    const after = await client.get('/api/articles').qs({ pageSize: 1 })
    assert.equal(after.body().meta.total, 3)
    assert.equal(after.body().data[0].slug, 'falls-due')
    // The list's Last-Modified moved to the moment it fell due.
    assert.equal(
      new Date(after.header('last-modified')!).getTime(),
      due.toMillis(),
      'Last-Modified is when the article fell due'
    )
  })

  test('a nickname change moves the version: authorName is fresh on the next list', async ({
    client,
    assert,
  }) => {
    const author = await User.findByOrFail('account', 'admin')
    await ArticleFactory.merge({ authorId: author.id }).create()
    const before = await client.get('/api/articles')
    await db.from('users').where('id', author.id).update({ nickname: 'Renamed by SQL' })
    const after = await client.get('/api/articles')
    assert.equal(after.body().data[0].authorName, 'Renamed by SQL')
    assert.notEqual(after.header('etag'), before.header('etag'))
  })
})

test.group('Public articles: the detail from memory follows every change', (group) => {
  withRealCommits(group)

  test('unchanged: the version read only; raw-SQL edits, unpublish and a nickname show next', async ({
    client,
    assert,
  }) => {
    const author = await User.findByOrFail('account', 'admin')
    await db.from('users').where('id', author.id).update({ nickname: 'Before' })
    await insertRaw('kept')
    await db.from('articles').where('slug', 'kept').update({ author_id: author.id })
    const show = () => client.get('/api/articles/kept')
    const first = await show()
    first.assertStatus(200)
    assert.equal(first.body().data.title, 'Raw kept')

    const cached = await countQueries(show)
    assert.deepEqual(cached.result.body(), first.body())
    assert.equal(cached.result.header('etag'), first.header('etag'))
    assert.lengthOf(cached.queries, 1, cached.queries.join('\n'))
    assert.match(cached.queries[0], /^SELECT version FROM articles_version WHERE id = 1$/)

    await db.from('articles').where('slug', 'kept').update({ title: 'Edited by SQL' })
    const edited = await show()
    assert.equal(edited.body().data.title, 'Edited by SQL')
    assert.notEqual(edited.header('etag'), first.header('etag'))

    await db.from('users').where('id', author.id).update({ nickname: 'After' })
    assert.equal((await show()).body().data.authorName, 'After')

    await db.from('articles').where('slug', 'kept').update({ status: 'archived' })
    ;(await show()).assertStatus(404)
    await db.from('articles').where('slug', 'kept').update({ status: 'published' })
    ;(await show()).assertStatus(200)
    await db.from('articles').where('slug', 'kept').delete()
    ;(await show()).assertStatus(404)
  })

  test('a scheduled article is not found, then found once due, without any write', async ({
    client,
  }) => {
    const due = DateTime.utc().startOf('second').plus({ seconds: 2 })
    await insertRaw('due-later', due)
    ;(await client.get('/api/articles/due-later')).assertStatus(404)
    await new Promise((resolve) => setTimeout(resolve, due.diffNow().toMillis() + 1100))
    ;(await client.get('/api/articles/due-later')).assertStatus(200)
  })
})

test.group('Public articles: list validators and 304', (group) => {
  withRealCommits(group)

  test('If-None-Match with the list ETag is a 304 without a body; a change gives a new ETag', async ({
    client,
    assert,
  }) => {
    await ArticleFactory.createMany(2)
    const first = await client.get('/api/articles').qs({ pageSize: 5 })
    first.assertStatus(200)
    const etag = first.header('etag')!
    assert.match(etag, /^"[A-Za-z0-9_-]{43}"$/)
    assert.equal(first.header('cache-control'), 'public, max-age=30')

    const again = await client
      .get('/api/articles')
      .qs({ pageSize: 5 })
      .header('If-None-Match', etag)
    again.assertStatus(304)
    assert.equal(again.text(), '')

    // Another page size is another body.
    const other = await client
      .get('/api/articles')
      .qs({ pageSize: 6 })
      .header('If-None-Match', etag)
    other.assertStatus(200)

    await insertRaw('raw-new')
    const changed = await client
      .get('/api/articles')
      .qs({ pageSize: 5 })
      .header('If-None-Match', etag)
    changed.assertStatus(200)
    assert.notEqual(changed.header('etag'), etag)
  })

  test('Last-Modified follows writes; If-Modified-Since alone gives 304 until the next one', async ({
    client,
    assert,
  }) => {
    await ArticleFactory.createMany(2)
    const first = await client.get('/api/articles')
    const lastModified = first.header('last-modified')!
    assert.isFalse(Number.isNaN(Date.parse(lastModified)))
    assert.isAtMost(Date.parse(lastModified), Date.now())

    const unchanged = await client.get('/api/articles').header('If-Modified-Since', lastModified)
    unchanged.assertStatus(304)

    // HTTP dates have whole seconds: the next write must land in a later second to be seen by
    // If-Modified-Since alone (the ETag sees it at once).
    await new Promise((resolve) => setTimeout(resolve, 1100))
    await db.from('articles').update({ title: 'Edited by SQL' })
    const edited = await client.get('/api/articles').header('If-Modified-Since', lastModified)
    edited.assertStatus(200)
    assert.isAbove(Date.parse(edited.header('last-modified')!), Date.parse(lastModified))
  })
})
