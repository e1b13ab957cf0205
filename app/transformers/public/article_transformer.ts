import { BaseTransformer } from '@adonisjs/core/transformers'
import { named } from '#openapi/schema'
import {
  type PublicArticle,
  type PublicArticleDetail,
  publicArticle,
  publicArticleDetail,
} from '#resources/articles'

/** Response contract (OpenAPI). */
export const publicArticleSchema = named('PublicArticle', publicArticle.schema)
export const publicArticleDetailSchema = named('PublicArticleDetail', publicArticleDetail.schema)

/** pick() is the last fence: even if a query selected more, only these keys leave the server. */
export default class ArticleTransformer extends BaseTransformer<
  PublicArticle | PublicArticleDetail
> {
  toObject() {
    return this.pick(this.resource, publicArticle.keys)
  }

  forDetail() {
    return this.pick(this.resource as PublicArticleDetail, publicArticleDetail.keys)
  }
}
