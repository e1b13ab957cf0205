/*
| Routes of the public module (see start/routes.ts). No auth middleware: these endpoints never
| look at the admin JWT, so a missing or bad Authorization header changes nothing.
*/
import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import { publicSearchThrottle } from '#start/limiter'

router
  .group(() => {
    router
      .get('articles', [controllers.public.Articles, 'index'])
      .use(publicSearchThrottle)
      .as('public.articles.index')
    router.get('articles/:slug', [controllers.public.Articles, 'show']).as('public.articles.show')
    // Parameters marked public (app/services/settings_reads.ts); any other key is 404.
    router
      .get('params/:key', [controllers.public.Params, 'show'])
      .where('key', /^[A-Za-z][A-Za-z0-9_.-]{0,99}$/)
      .as('public.params.show')
  })
  .prefix('/api')
