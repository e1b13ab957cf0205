import { BasePolicy } from '@adonisjs/bouncer'
import { PERMISSIONS } from '#auth/permissions'
import { type Principal, REFUSED, refuse } from '#policies/grant_rule'

/**
 * Articles. A published article is live content: editing or deleting it is a publishing act, so
 * it needs `content:article:publish` on top of the route's own code (docs/architecture.md, "Authorization").
 * Drafts and scheduled articles are edited with `content:article:update` alone.
 */
export default class ArticlePolicy extends BasePolicy {
  update(principal: Principal, article: { status: string }) {
    return this.live(principal, article)
  }

  delete(principal: Principal, article: { status: string }) {
    return this.live(principal, article)
  }

  private live(principal: Principal, article: { status: string }) {
    if (article.status !== 'published' || principal.access.can(PERMISSIONS.article.publish)) {
      return true
    }
    return refuse(REFUSED.publish)
  }
}
