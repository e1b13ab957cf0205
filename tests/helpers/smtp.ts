import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { simpleParser } from 'mailparser'

/**
 * A real SMTP server for the suites (the `smtp-server` package; `mailparser` reads what arrived):
 * bin/test.ts starts it on a free loopback port before the app boots and points SMTP_HOST and
 * SMTP_PORT at it, so the app sends through its real transport (docs/email.md).
 */
export type Received = { to: string[]; subject: string; text: string; html: string }

const inbox: Received[] = []
const waiters = new Set<() => void>()

export async function startSmtpServer(
  listenOn = 0
): Promise<{ port: number; close: () => Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          inbox.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
          })
          for (const wake of waiters) wake()
          callback()
        })
        .catch(callback)
    },
  })
  await new Promise<void>((resolve) => server.listen(listenOn, '127.0.0.1', resolve))
  // It never keeps the run alive.
  server.server.unref()
  const { port } = server.server.address() as AddressInfo
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

/** Every mail received so far for that address. */
export const mailsTo = (address: string) =>
  inbox.filter((mail) => mail.to.includes(address.toLowerCase()))

/** Forget what arrived (each test starts with an empty inbox). */
export const clearInbox = () => {
  inbox.length = 0
}

/** The `count`th mail for that address, once it has arrived (throws after `timeoutMs`). */
export async function waitForMail(address: string, count = 1, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs
  while (mailsTo(address).length < count) {
    const left = deadline - Date.now()
    if (left <= 0) throw new Error(`no mail #${count} for ${address} within ${timeoutMs} ms`)
    await new Promise<void>((resolve) => {
      const wake = () => {
        waiters.delete(wake)
        clearTimeout(timer)
        resolve()
      }
      const timer = setTimeout(wake, left)
      waiters.add(wake)
    })
  }
  return mailsTo(address)[count - 1]
}

/** The single-use link's token in a mail (`...#/<route>?token=<token>`). */
export function tokenIn(mail: Received, route: string) {
  const match = mail.text.match(new RegExp(`#/${route}\\?token=([A-Za-z0-9_-]+)`))
  if (!match) throw new Error(`no ${route} link in: ${mail.text}`)
  return match[1]
}

/** The 6-digit code in a verification mail. */
export function codeIn(mail: Received) {
  const match = mail.text.match(/\b([0-9]{6})\b/)
  if (!match) throw new Error(`no code in: ${mail.text}`)
  return match[1]
}
