/*
| @adonisjs/mail's provider (@adonisjs/mail/mail_provider), minus its imports at boot: that one
| imports the mail package and nodemailer with it, and its shutdown builds the manager to close
| it. Here the manager is built, and the package loaded, when something first resolves
| 'mail.manager' (the first mail: app/services/email/outbox.ts), the way @adonisjs/redis's own
| provider defers ioredis. No Edge templates (the mails are built in app/services/email/mails.ts)
| and no `Mailer` class binding (nothing injects it).
*/
import type { ApplicationService } from '@adonisjs/core/types'
import type { MailManager } from '@adonisjs/mail'
import type {} from '@adonisjs/mail/mail_provider'
import { configProvider } from '@adonisjs/core/config'
import { RuntimeException } from '@adonisjs/core/exceptions'

export default class MailProvider {
  #manager?: MailManager<any>

  constructor(protected app: ApplicationService) {}

  register() {
    this.app.container.singleton('mail.manager', async (resolver) => {
      const { MailManager: Manager } = await import('@adonisjs/mail')
      const config = await configProvider.resolve<any>(this.app, this.app.config.get('mail'))
      if (!config) {
        throw new RuntimeException(
          'Invalid "config/mail.ts" file. Make sure you are using the "defineConfig" method'
        )
      }
      this.#manager = new Manager(await resolver.make('emitter'), config)
      return this.#manager
    })
  }

  /** Closes the transports' connections, when a mail was sent. */
  async shutdown() {
    await this.#manager?.closeAll()
  }
}
