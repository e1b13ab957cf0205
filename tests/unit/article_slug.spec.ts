import { test } from '@japa/runner'
import { firstFreeSlug, slugify } from '#services/admin/article_service'

test.group('Article slugs', () => {
  test('slugify: lower-case ASCII letters and digits joined by single dashes', ({ assert }) => {
    assert.equal(slugify('Hello World'), 'hello-world')
    assert.equal(slugify('  RBAC: roles & menus, v2!  '), 'rbac-roles-menus-v2')
    assert.equal(slugify('a---b___c'), 'a-b-c')
    assert.equal(slugify('Release 2024'), 'release-2024')
  })

  test('slugify: accents are stripped, compatibility forms folded', ({ assert }) => {
    assert.equal(slugify('Crème Brûlée à Paris'), 'creme-brulee-a-paris')
    assert.equal(slugify('ﬁle Ｎｏ２'), 'file-no2')
  })

  test('slugify: "article" when nothing usable is left', ({ assert }) => {
    assert.equal(slugify(''), 'article')
    assert.equal(slugify('!!! ---'), 'article')
    assert.equal(slugify('日本語のタイトル'), 'article')
  })

  test('slugify: at most 150 characters, no dash left at the cut', ({ assert }) => {
    assert.equal(slugify('a'.repeat(200)), 'a'.repeat(150))
    assert.equal(slugify('a'.repeat(149) + ' b'), 'a'.repeat(149))
    assert.equal(slugify('a'.repeat(150) + ' b'), 'a'.repeat(150))
  })

  test('firstFreeSlug: the base, else the first free -N from 2', ({ assert }) => {
    assert.equal(firstFreeSlug('news', new Set()), 'news')
    assert.equal(firstFreeSlug('news', new Set(['news-2', 'news-3'])), 'news')
    assert.equal(firstFreeSlug('news', new Set(['news'])), 'news-2')
    assert.equal(firstFreeSlug('news', new Set(['news', 'news-2', 'news-4'])), 'news-3')
    assert.equal(firstFreeSlug('news', new Set(['news', 'news-2', 'news-3'])), 'news-4')
  })
})
