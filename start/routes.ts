/*
| Routes. Everything lives under /api (no version segment):
|   /api/health/*    live (no I/O), ready (database, replica, Redis); /api/health = ready (here)
|   /api/auth/*      captcha, login, me, password                           (start/routes/auth.ts)
|   /api/admin/*     RBAC administration; every route declares a permission (start/routes/admin.ts)
|   /api/articles*   public article module, no auth                         (start/routes/public.ts)
|   /api/openapi.json, /api/docs   the API contract (off in production unless OPENAPI_ENABLED)
|   /api/metrics     Prometheus metrics, only with x-monitoring-secret: METRICS_SECRET (else 404)
*/
import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import { ID_PARAM, NUMERIC_PARAMS } from '#core/route_ids'

// Every numeric route parameter, on every route below: a positive int4, else 404 (app/core/route_ids.ts).
for (const name of NUMERIC_PARAMS) router.where(name, ID_PARAM)

router.get('/api/health/live', [controllers.Health, 'live']).as('health.live')
router.get('/api/health/ready', [controllers.Health, 'ready']).as('health.ready')
router.get('/api/health', [controllers.Health, 'ready']).as('health')
router.get('/api/openapi.json', [controllers.Openapi, 'document']).as('openapi.document')
router.get('/api/docs', [controllers.Openapi, 'reference']).as('openapi.reference')
router.get('/api/docs/assets/:file', [controllers.Openapi, 'asset']).as('openapi.asset')
router.get('/api/metrics', [controllers.Metrics, 'show']).as('metrics')

await import('#start/routes/auth')
await import('#start/routes/admin')
await import('#start/routes/public')
