/*
| Administrator authentication (see start/routes.ts), and each administrator's own API tokens. The captcha routes are throttled per address
| (start/limiter.ts); login is limited inside its service (per address and per account).
*/
import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import { middleware } from '#start/kernel'
import { captchaThrottle } from '#start/limiter'
import { SESSION_ID } from '#auth/sessions'

router
  .group(() => {
    router
      .group(() => {
        router.get('captcha', [controllers.auth.Captcha, 'challenge']).as('captcha.challenge')
        router.post('captcha', [controllers.auth.Captcha, 'show']).as('captcha.show')
        router.post('captcha/verify', [controllers.auth.Captcha, 'verify']).as('captcha.verify')
      })
      .use(captchaThrottle)
    router.post('login', [controllers.auth.Session, 'store']).as('login')
    // Email (docs/email.md): 404 without SMTP_HOST; the requests answer 202 whatever the account.
    router.get('features', [controllers.auth.AccountMail, 'features']).as('features')
    router.post('password/forgot', [controllers.auth.AccountMail, 'forgot']).as('password.forgot')
    router.post('password/reset', [controllers.auth.AccountMail, 'reset']).as('password.reset')
    router.post('email/undo', [controllers.auth.AccountMail, 'undoEmail']).as('email.undo')
    router
      .post('devices/request', [controllers.auth.AccountMail, 'requestDevice'])
      .as('devices.request')
    router.post('devices/enrol', [controllers.auth.AccountMail, 'enrol']).as('devices.enrol')
    router.post('login/2fa', [controllers.auth.Session, 'secondStep']).as('login.secondStep')
    router
      .post('login/passkey/options', [controllers.auth.Session, 'passkeyOptions'])
      .as('login.passkeyOptions')
    router.post('login/passkey', [controllers.auth.Session, 'passkey']).as('login.passkey')
    router
      .group(() => {
        router.get('me', [controllers.auth.Me, 'show']).as('me')
        router.put('password', [controllers.auth.Password, 'update']).as('password.update')
        router.post('logout', [controllers.auth.Session, 'destroy']).as('logout')
        router.get('sessions', [controllers.auth.OwnSessions, 'index']).as('sessions.index')
        router
          .delete('sessions/:id', [controllers.auth.OwnSessions, 'destroy'])
          .where('id', SESSION_ID)
          .as('sessions.destroy')
        router.get('devices', [controllers.auth.Devices, 'index']).as('devices.index')
        router
          .delete('devices/:id', [controllers.auth.Devices, 'destroy'])
          .where('id', /^[A-Za-z0-9_-]{16}$/)
          .as('devices.destroy')
      })
      // What a pending account may still do (app/auth/account_requirements.ts).
      .use(middleware.auth({ pending: ['E_PASSWORD_CHANGE_REQUIRED', 'E_2FA_SETUP_REQUIRED'] }))
    // The second factor: enrolling settles E_2FA_SETUP_REQUIRED, so setup and confirm accept it,
    // and so does registering a passkey (app/auth/passkeys.ts).
    router
      .group(() => {
        router.post('2fa/setup', [controllers.auth.TwoFactor, 'setup']).as('2fa.setup')
        router.post('2fa/confirm', [controllers.auth.TwoFactor, 'confirm']).as('2fa.confirm')
        router.get('passkeys', [controllers.auth.Passkeys, 'index']).as('passkeys.index')
        router
          .post('passkeys/options', [controllers.auth.Passkeys, 'options'])
          .as('passkeys.options')
        router.post('passkeys', [controllers.auth.Passkeys, 'store']).as('passkeys.store')
      })
      .use(middleware.auth({ pending: ['E_2FA_SETUP_REQUIRED'] }))
    router
      .delete('passkeys/:id', [controllers.auth.Passkeys, 'destroy'])
      .as('passkeys.destroy')
      .use(middleware.auth())
    router
      .delete('2fa', [controllers.auth.TwoFactor, 'destroy'])
      .as('2fa.destroy')
      .use(middleware.auth())
    router
      .get('me/grantable-menus', [controllers.auth.Me, 'grantable'])
      .as('me.grantableMenus')
      .use(middleware.auth())
    // Own API tokens (app/auth/api_tokens.ts): a signed-in session only, never a token.
    router
      .group(() => {
        router.get('tokens', [controllers.auth.ApiTokens, 'index']).as('index')
        router.post('tokens', [controllers.auth.ApiTokens, 'store']).as('store')
        router.delete('tokens/:id', [controllers.auth.ApiTokens, 'destroy']).as('destroy')
      })
      .as('tokens')
      .use(middleware.auth())
    // Notices to administrators (app/services/own_notice_service.ts).
    router
      .group(() => {
        router.get('notices', [controllers.auth.Notices, 'index']).as('index')
        router.post('notices/:id/read', [controllers.auth.Notices, 'read']).as('read')
      })
      .as('notices')
      .use(middleware.auth())
    router
      .group(() => {
        router.get('profile', [controllers.auth.Profile, 'show']).as('profile.show')
        router.put('profile', [controllers.auth.Profile, 'update']).as('profile.update')
        router.put('avatar', [controllers.auth.Profile, 'avatar']).as('avatar.update')
        router
          .post('profile/email/verify', [controllers.auth.AccountMail, 'verify'])
          .as('profile.email.verify')
        router
          .post('profile/email/code', [controllers.auth.AccountMail, 'resendCode'])
          .as('profile.email.code')
      })
      .use(middleware.auth())
  })
  .prefix('/api/auth')
  .as('auth')

// Avatars: any signed-in administrator, nobody else (docs/architecture.md, "Password lifecycle and own profile").
router
  .get('/api/avatars/:userId', [controllers.auth.Avatars, 'show'])
  .as('avatars.show')
  .use(middleware.auth())

// Dictionaries: any signed-in administrator (app/services/settings_reads.ts).
router
  .get('/api/dicts/:code', [controllers.auth.Settings, 'dict'])
  .where('code', /^[a-z][a-z0-9_]{0,63}$/)
  .as('dicts.show')
  .use(middleware.auth())
