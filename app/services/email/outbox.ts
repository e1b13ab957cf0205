import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import env from '#start/env'
import { notFound } from '#exceptions/api_exception'
import type { Mail } from '#services/email/mails'

/**
 * Where mails go (docs/email.md): `smtp` when SMTP_HOST is set; `log` in development without it
 * (written to the log, so README command one shows the flow); `off` otherwise, and then the mail
 * routes answer 404 (GET /api/auth/features tells the console).
 */
export type MailMode = 'smtp' | 'log' | 'off'
let mode: MailMode = env.get('SMTP_HOST') ? 'smtp' : app.inDev ? 'log' : 'off'

export const mailEnabled = () => mode !== 'off'

/** 404 E_NOT_FOUND, as for an unknown route, while mail is off. */
export function assertMailEnabled() {
  if (!mailEnabled()) throw notFound()
}

/** Tests: switch the mode (the suites run with SMTP to a server they start: bin/test.ts). */
export function setMailMode(next: MailMode) {
  mode = next
}

/** One mail to one address: plain text and HTML. Throws when the SMTP server refuses it. */
export async function sendMail(to: string, content: Mail) {
  if (mode === 'log') {
    logger.info(
      { event: 'mail.logged', to, subject: content.subject, text: content.text },
      'mail (development without SMTP_HOST: written here instead of sent)'
    )
    return
  }
  if (mode === 'off') return
  // Imported here: the mail service builds the manager, which loads the mail package and
  // nodemailer (providers/mail_provider.ts); a process that sends no mail never loads them.
  const { default: mail } = await import('@adonisjs/mail/services/main')
  await mail.send((message) => {
    message.to(to).subject(content.subject).text(content.text).html(content.html)
  })
}

/**
 * Work done after the answer (the mail requests: their answer must not wait for, or tell
 * anything by, the account lookup and the SMTP round trip). Started on the next turn of the event
 * loop, after the response is written; a failure is logged, never thrown. SIGTERM waits for it.
 */
const pending = new Set<Promise<void>>()
export function afterAnswer(event: string, work: () => Promise<void>) {
  const job = new Promise<void>((resolve) => setImmediate(resolve))
    .then(work)
    .catch((error) => logger.error({ event, err: error }, 'mail work failed'))
    .finally(() => pending.delete(job))
  pending.add(job)
}

/** Resolves once the work started so far (and the work it started) is done. */
export async function settled() {
  while (pending.size) await Promise.all([...pending])
}

app.terminating(() => settled())
