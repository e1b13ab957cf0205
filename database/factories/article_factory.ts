import { DateTime } from 'luxon'
import factory from '@adonisjs/lucid/factories'
import Article, { ARTICLE_CATEGORIES } from '#models/article'

/**
 * Articles for tests. The default is a published article that is already due; the states give the
 * other cases the public module must hide (draft, archived, scheduled for the future).
 */
export const ArticleFactory = factory
  .define(Article, ({ faker }) => {
    const title = faker.lorem.sentence({ min: 3, max: 7 }).replace(/\.$/, '')
    return {
      slug: `${faker.helpers.slugify(title).toLowerCase()}-${faker.string.alphanumeric({ length: 8, casing: 'lower' })}`,
      title,
      summary: faker.lorem.sentence(),
      content: faker.lorem.paragraphs(2),
      category: faker.helpers.arrayElement(ARTICLE_CATEGORIES),
      coverUrl: faker.image.url(),
      status: 'published' as const,
      // Whole seconds: SQLite stores no fractions, so both databases hold the same value.
      publishedAt: DateTime.utc()
        .startOf('second')
        .minus({ minutes: faker.number.int({ min: 1, max: 60 * 24 * 30 }) }),
      authorId: null,
      internalNote: faker.lorem.sentence(),
    }
  })
  .state('draft', (article) => {
    article.status = 'draft'
    article.publishedAt = null
  })
  .state('archived', (article) => {
    article.status = 'archived'
  })
  .state('scheduled', (article) => {
    article.status = 'published'
    article.publishedAt = DateTime.utc().startOf('second').plus({ days: 1 })
  })
  .build()
