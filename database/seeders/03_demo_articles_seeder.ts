import { BaseSeeder } from '@adonisjs/lucid/seeders'
import { DateTime } from 'luxon'
import Article from '#models/article'
import User from '#models/user'

/**
 * A few demo articles (published, draft, scheduled in the future) for a local try-out.
 * Never in production; idempotent by slug.
 */
export default class DemoArticlesSeeder extends BaseSeeder {
  static environment = ['development']

  async run() {
    const author = await User.query().orderBy('id').first()
    const now = DateTime.utc()
    const demo = [
      {
        slug: 'welcome',
        title: 'Welcome',
        category: 'announcement',
        status: 'published',
        publishedAt: now.minus({ days: 2 }),
      },
      {
        slug: 'getting-started',
        title: 'Getting started',
        category: 'guide',
        status: 'published',
        publishedAt: now.minus({ days: 1 }),
      },
      {
        slug: 'release-0-1',
        title: 'Release 0.1',
        category: 'release',
        status: 'published',
        publishedAt: now.minus({ hours: 3 }),
      },
      {
        slug: 'draft-roadmap',
        title: 'Roadmap (draft)',
        category: 'news',
        status: 'draft',
        publishedAt: null,
      },
      {
        slug: 'scheduled-launch',
        title: 'Launch day',
        category: 'news',
        status: 'published',
        publishedAt: now.plus({ days: 30 }),
      },
    ] as const
    for (const item of demo) {
      await Article.firstOrCreate(
        { slug: item.slug },
        {
          ...item,
          summary: `${item.title}: a demo article.`,
          content: `# ${item.title}\n\nThis is demo content seeded for local development.`,
          authorId: author?.id ?? null,
          internalNote: 'demo data',
        }
      )
    }
  }
}
