/*
| Administrator authentication (see start/routes.ts). Captcha and login are rate limited inside
| their controllers/services (per IP, and per account for login).
*/
import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import { middleware } from '#start/kernel'

router
  .group(() => {
    router.get('captcha', [controllers.auth.Captcha, 'challenge']).as('captcha.challenge')
    router.post('captcha', [controllers.auth.Captcha, 'show']).as('captcha.show')
    router.post('captcha/verify', [controllers.auth.Captcha, 'verify']).as('captcha.verify')
    router.post('login', [controllers.auth.Session, 'store']).as('login')
    router
      .group(() => {
        router.get('me', [controllers.auth.Me, 'show']).as('me')
        router.get('me/grantable-menus', [controllers.auth.Me, 'grantable']).as('me.grantableMenus')
        router.put('password', [controllers.auth.Password, 'update']).as('password.update')
        router.post('logout', [controllers.auth.Session, 'destroy']).as('logout')
        router.get('sessions', [controllers.auth.OwnSessions, 'index']).as('sessions.index')
        router
          .delete('sessions/:id', [controllers.auth.OwnSessions, 'destroy'])
          .as('sessions.destroy')
      })
      .use(middleware.auth())
  })
  .prefix('/api/auth')
  .as('auth')
