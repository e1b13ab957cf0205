import env from '#start/env'
import { configProvider } from '@adonisjs/core/config'

/**
 * Mail over SMTP (docs/email.md). The mail routes exist only when SMTP_HOST is set; without it,
 * in development, mails are written to the log instead (app/services/email/outbox.ts), and
 * elsewhere those routes answer 404. The transport connects on the first mail, never at boot.
 *
 * A config provider whose resolver imports '@adonisjs/mail': that import loads nodemailer and
 * the mail package (50 modules), which no process needs before its first mail; it runs when
 * providers/mail_provider.ts builds the mail manager.
 */
const username = env.get('SMTP_USERNAME')
const mailConfig = configProvider.create(async (app) => {
  const { defineConfig, transports } = await import('@adonisjs/mail')
  return defineConfig({
    default: 'smtp',
    from: env.get('MAIL_FROM') || 'adonis-rbac <no-reply@localhost>',
    mailers: {
      smtp: transports.smtp({
        host: env.get('SMTP_HOST') ?? '127.0.0.1',
        port: env.get('SMTP_PORT', 587),
        // Implicit TLS on 465; elsewhere STARTTLS when the server offers it.
        secure: env.get('SMTP_PORT', 587) === 465,
        ...(username
          ? {
              auth: { type: 'login' as const, user: username, pass: env.get('SMTP_PASSWORD', '') },
            }
          : {}),
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      }),
    },
  }).resolver(app)
})

export default mailConfig

declare module '@adonisjs/mail/types' {
  export interface MailersList extends InferMailers<typeof mailConfig> {}
}
