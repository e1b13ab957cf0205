import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import Article from '#models/article'
import { isolate } from '#tests/helpers/database'
import { slugify } from '#services/admin/article_service'
import { seededAdmin } from '#tests/helpers/rbac'

async function article(attributes: Partial<Article> = {}) {
  return Article.create({
    slug: `a-${Math.random().toString(36).slice(2, 10)}`,
    title: 'An article',
    summary: 'Summary',
    content: 'Content',
    category: 'news',
    status: 'draft',
    internalNote: 'internal only',
    ...attributes,
  })
}

test.group('Admin articles: list and show', (group) => {
  isolate(group)

  test('the list holds every status, newest id first, filtered by status, category and keyword', async ({
    client,
    assert,
  }) => {
    const admin = await seededAdmin()
    const draft = await article({ title: 'Draft plan', category: 'guide' })
    const live = await article({
      title: 'Live news',
      status: 'published',
      publishedAt: DateTime.utc().minus({ days: 1 }),
    })
    const archived = await article({ title: 'Old story', status: 'archived' })
    const body = async (qs: Record<string, unknown> = {}) => {
      const response = await client.get('/api/admin/articles').qs(qs).loginAs(admin)
      response.assertStatus(200)
      return response.body()
    }
    const all = await body()
    assert.deepEqual(
      all.data.map((row: Article) => row.id),
      [archived.id, live.id, draft.id]
    )
    assert.deepEqual(all.meta, { total: 3, pageNum: 1, pageSize: 10, lastPage: 1 })
    assert.notProperty(all.data[0], 'content')
    assert.property(all.data[0], 'status')
    assert.deepEqual(
      (await body({ status: 'draft' })).data.map((row: Article) => row.id),
      [draft.id]
    )
    assert.deepEqual(
      (await body({ category: 'guide' })).data.map((row: Article) => row.id),
      [draft.id]
    )
    assert.deepEqual(
      (await body({ keyword: 'LIVE' })).data.map((row: Article) => row.id),
      [live.id]
    )
    // One Chinese character is a keyword too (no minimum length).
    const chinese = await article({ title: '权限说明' })
    assert.deepEqual(
      (await body({ keyword: '权' })).data.map((row: Article) => row.id),
      [chinese.id]
    )
    ;(
      await client.get('/api/admin/articles').qs({ category: 'gossip' }).loginAs(admin)
    ).assertStatus(422)
    ;(
      await client.get('/api/admin/articles').qs({ status: 'deleted' }).loginAs(admin)
    ).assertStatus(422)
  })

  test('show has the internal fields and the author; unknown ids are 404', async ({
    client,
    assert,
  }) => {
    const admin = await seededAdmin()
    const row = await article({ authorId: admin.id })
    const response = await client.get(`/api/admin/articles/${row.id}`).loginAs(admin)
    response.assertStatus(200)
    assert.containSubset(response.body().data, {
      id: row.id,
      content: 'Content',
      internalNote: 'internal only',
      status: 'draft',
      scheduled: false,
      author: { id: admin.id, account: 'admin' },
    })
    assert.notProperty(response.body().data.author, 'password')
    for (const [method, url] of [
      ['GET', '/api/admin/articles/424242'],
      ['PUT', '/api/admin/articles/424242'],
      ['DELETE', '/api/admin/articles/424242'],
      ['POST', '/api/admin/articles/424242/publish'],
      ['POST', '/api/admin/articles/424242/unpublish'],
      ['GET', '/api/admin/articles/99999999999'],
      ['GET', '/api/admin/articles/not-an-id'],
    ]) {
      const missing = await client.request(url, method).json({}).loginAs(admin)
      assert.equal(missing.status(), 404, `${method} ${url}`)
    }
  })
})

test.group('Admin articles: create, update, delete', (group) => {
  isolate(group)

  test('slugify makes URL slugs from titles', ({ assert }) => {
    assert.equal(slugify('Hello, World!'), 'hello-world')
    assert.equal(slugify('  Crème brûlée à la carte  '), 'creme-brulee-a-la-carte')
    assert.equal(slugify('新しい記事'), 'article')
    assert.lengthOf(slugify('word '.repeat(100)), 149)
  })

  test('create: a draft by the caller, slug generated from the title and made unique', async ({
    client,
    assert,
  }) => {
    const admin = await seededAdmin()
    const body = { title: 'Hello, World!', content: 'Body', category: 'news', summary: 'Hi' }
    const first = await client.post('/api/admin/articles').json(body).loginAs(admin)
    first.assertStatus(201)
    assert.containSubset(first.body().data, {
      slug: 'hello-world',
      status: 'draft',
      publishedAt: null,
      authorId: admin.id,
      summary: 'Hi',
    })
    const second = await client.post('/api/admin/articles').json(body).loginAs(admin)
    second.assertStatus(201)
    assert.equal(second.body().data.slug, 'hello-world-2')
    const third = await client.post('/api/admin/articles').json(body).loginAs(admin)
    assert.equal(third.body().data.slug, 'hello-world-3')
  })

  test('create: a given slug already taken is 409', async ({ client, assert }) => {
    await article({ slug: 'taken' })
    const response = await client
      .post('/api/admin/articles')
      .json({ title: 'T', slug: 'taken', content: 'c', category: 'news' })
      .loginAs(await seededAdmin())
    response.assertStatus(409)
    assert.equal(response.body().errors[0].code, 'E_CONFLICT')
    assert.lengthOf(await Article.query().where('slug', 'taken'), 1)
  })

  test('create: status, publishedAt, authorId and id in the body are refused', async ({
    client,
    assert,
  }) => {
    const admin = await seededAdmin()
    for (const [key, value] of Object.entries({
      status: 'published',
      publishedAt: '2020-01-01T00:00:00Z',
      authorId: 424242,
      id: 999,
    })) {
      const response = await client
        .post('/api/admin/articles')
        .json({ title: 'Sneaky', content: 'c', category: 'news', [key]: value })
        .loginAs(admin)
      response.assertStatus(422)
      assert.containSubset(response.body().errors, [{ field: key, rule: 'unknownProperty' }])
    }
    assert.isNull(await Article.findBy('slug', 'sneaky'))
    const response = await client
      .post('/api/admin/articles')
      .json({ title: 'Sneaky', content: 'c', category: 'news' })
      .loginAs(admin)
    response.assertStatus(201)
    const stored = await Article.findByOrFail('slug', 'sneaky')
    assert.equal(stored.status, 'draft')
    assert.isNull(stored.publishedAt)
    assert.equal(stored.authorId, admin.id)
  })

  test('create: invalid bodies are 422: {name}')
    .with([
      { name: 'empty body', body: {}, fields: ['title', 'content', 'category'] },
      {
        name: 'unknown category',
        body: { title: 't', content: 'c', category: 'gossip' },
        fields: ['category'],
      },
      {
        name: 'slug with capitals and spaces',
        body: { title: 't', content: 'c', category: 'news', slug: 'Not A Slug' },
        fields: ['slug'],
      },
      {
        name: 'javascript: cover URL',
        body: { title: 't', content: 'c', category: 'news', coverUrl: 'javascript:alert(1)' },
        fields: ['coverUrl'],
      },
      {
        name: 'title too long',
        body: { title: 't'.repeat(201), content: 'c', category: 'news' },
        fields: ['title'],
      },
    ])
    .run(async ({ client, assert }, row) => {
      const response = await client
        .post('/api/admin/articles')
        .json(row.body)
        .loginAs(await seededAdmin())
      response.assertStatus(422)
      assert.sameMembers(
        response.body().errors.map((error: { field: string }) => error.field),
        row.fields
      )
      assert.lengthOf(await Article.all(), 0)
    })

  test('update: fields change, the slug stays unless given, a taken slug is 409', async ({
    client,
    assert,
  }) => {
    const admin = await seededAdmin()
    const row = await article({ slug: 'original' })
    await article({ slug: 'taken' })
    const response = await client
      .put(`/api/admin/articles/${row.id}`)
      .json({
        title: 'New title',
        coverUrl: 'https://cdn.example.com/cover.png',
        internalNote: null,
      })
      .loginAs(admin)
    response.assertStatus(200)
    assert.containSubset(response.body().data, {
      title: 'New title',
      slug: 'original',
      coverUrl: 'https://cdn.example.com/cover.png',
      internalNote: null,
      status: 'draft',
    })
    const clash = await client
      .put(`/api/admin/articles/${row.id}`)
      .json({ slug: 'taken' })
      .loginAs(admin)
    clash.assertStatus(409)
    const renamed = await client
      .put(`/api/admin/articles/${row.id}`)
      .json({ slug: 'new-slug' })
      .loginAs(admin)
    renamed.assertStatus(200)
    assert.equal((await Article.findOrFail(row.id)).slug, 'new-slug')
  })

  test('delete: 204 and the row is gone', async ({ client, assert }) => {
    const row = await article()
    const response = await client
      .delete(`/api/admin/articles/${row.id}`)
      .loginAs(await seededAdmin())
    response.assertStatus(204)
    assert.isNull(await Article.find(row.id))
  })
})

test.group('Admin articles: publish and unpublish', (group) => {
  isolate(group)

  test('publish without a date publishes now', async ({ client, assert }) => {
    const row = await article()
    const before = DateTime.utc().minus({ seconds: 2 })
    const response = await client
      .post(`/api/admin/articles/${row.id}/publish`)
      .loginAs(await seededAdmin())
    response.assertStatus(200)
    assert.containSubset(response.body().data, { status: 'published', scheduled: false })
    const stored = await Article.findOrFail(row.id)
    assert.equal(stored.status, 'published')
    assert.isTrue(
      stored.publishedAt! >= before && stored.publishedAt! <= DateTime.utc().plus({ seconds: 2 })
    )
  })

  test('publish with a future publishedAt schedules it', async ({ client, assert }) => {
    const row = await article()
    const when = DateTime.utc().plus({ days: 3 }).startOf('second')
    const response = await client
      .post(`/api/admin/articles/${row.id}/publish`)
      .json({ publishedAt: when.toISO() })
      .loginAs(await seededAdmin())
    response.assertStatus(200)
    assert.containSubset(response.body().data, { status: 'published', scheduled: true })
    const stored = await Article.findOrFail(row.id)
    assert.equal(stored.publishedAt!.toMillis(), when.toMillis())

    // Publishing again without a date keeps the scheduled date.
    await client.post(`/api/admin/articles/${row.id}/publish`).loginAs(await seededAdmin())
    assert.equal((await Article.findOrFail(row.id)).publishedAt!.toMillis(), when.toMillis())
  })

  test('publish rejects a malformed date with 422: {$self}')
    .with(['tomorrow', '2024-13-01T00:00:00Z', '12'])
    .run(async ({ client, assert }, value) => {
      const row = await article()
      const response = await client
        .post(`/api/admin/articles/${row.id}/publish`)
        .json({ publishedAt: value })
        .loginAs(await seededAdmin())
      response.assertStatus(422)
      assert.equal(response.body().errors[0].field, 'publishedAt')
      assert.equal((await Article.findOrFail(row.id)).status, 'draft')
    })

  test('unpublish puts it back to draft', async ({ client, assert }) => {
    const row = await article({
      status: 'published',
      publishedAt: DateTime.utc().minus({ hours: 1 }),
    })
    const response = await client
      .post(`/api/admin/articles/${row.id}/unpublish`)
      .loginAs(await seededAdmin())
    response.assertStatus(200)
    assert.containSubset(response.body().data, { status: 'draft', publishedAt: null })
  })
})
