/*
| Routes. Everything lives under /api (no version segment):
|   /api/health                 liveness + readiness
|   /api/auth/*                 captcha, login, me, password      (start/routes/auth.ts)
|   /api/admin/*                RBAC administration, each route declares a permission (start/routes/admin.ts)
|   /api/articles*              public article module, no auth    (start/routes/public.ts)
*/
import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'

router
  .group(() => {
    router.get('health', [controllers.Health, 'show']).as('health')
  })
  .prefix('/api')
