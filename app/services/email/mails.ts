import env from '#start/env'

/**
 * Every mail the service sends, plain text and HTML, in one place (English until the languages
 * issue translates them). No secret in them but the single-use link or code.
 */
export type Mail = { subject: string; text: string; html: string }

const PRODUCT = 'Admin console'

/**
 * The console's origin (APP_URL); links open its hash routes. Without it: the development
 * console (http://localhost:5173).
 */
export const appUrl = () => (env.get('APP_URL') || 'http://localhost:5173').replace(/\/+$/, '')
export const consoleLink = (route: string, token: string) =>
  `${appUrl()}/#/${route}?token=${encodeURIComponent(token)}`

const escape = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!
  )

/** One paragraph per entry; a `{ link }` entry becomes a button-like link. */
type Part = string | { link: string; label: string }
function compose(subject: string, parts: Part[]): Mail {
  const text = parts
    .map((part) => (typeof part === 'string' ? part : `${part.label}:\n${part.link}`))
    .join('\n\n')
  const body = parts
    .map((part) =>
      typeof part === 'string'
        ? `<p>${escape(part)}</p>`
        : `<p><a href="${escape(part.link)}">${escape(part.label)}</a></p>`
    )
    .join('\n')
  const html =
    `<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">` +
    `${body}<p style="color: #666">${escape(PRODUCT)}</p></body></html>`
  return { subject: `${PRODUCT}: ${subject}`, text: `${text}\n\n-- \n${PRODUCT}\n`, html }
}

export const verifyCodeMail = (account: string, code: string) =>
  compose('confirm your email address', [
    `Your confirmation code for the account ${account} is:`,
    code,
    'Enter it on your profile page within 10 minutes. If you did not change the address of ' +
      'your account, ignore this mail and tell an administrator.',
  ])

export const passwordResetMail = (account: string, link: string) =>
  compose('reset your password', [
    `Someone asked to reset the password of the account ${account}.`,
    { link, label: 'Choose a new password' },
    'The link works once, for 15 minutes. Every session of the account ends when the password ' +
      'changes; a second factor is still asked at the next sign-in. If you did not ask for ' +
      'this, ignore this mail: your password stays as it is.',
  ])

export const deviceLinkMail = (account: string, link: string) =>
  compose('sign in from a new browser', [
    `Someone asked for a sign-in link for the account ${account}.`,
    { link, label: 'Trust this browser and sign in' },
    'Open it in the browser you want to sign in with: it lets that browser past the lock on ' +
      'failed sign-ins (your password, and a second factor if you have one, are still asked). ' +
      'The link works once, for 15 minutes. If you did not ask for it, ignore this mail.',
  ])

export const lockNoticeMail = (account: string, failures: number, addresses: string) =>
  compose('your account is locked for new browsers', [
    `The account ${account} had ${failures} failed sign-ins in a row, from ${addresses}. ` +
      'New browsers cannot sign in to it for now.',
    'If this was you: sign in from a browser you used before, or use "Send me a sign-in link ' +
      'for this browser" on the sign-in page, or "Forgot password?".',
    'If it was not you: someone is guessing your password. It held so far; choose a long, ' +
      'unique one once you are in, set up a second factor, and tell an administrator.',
    { link: `${appUrl()}/#/login`, label: 'Open the sign-in page' },
  ])

/** To the address an email change replaced (docs/email.md, "Email change"). */
export const emailChangedMail = (account: string, newAddress: string | null, link: string) =>
  compose('your email address was changed', [
    newAddress
      ? `The email address of the account ${account} was changed from this address to ${newAddress}.`
      : `The email address of the account ${account} was removed (it was this address).`,
    'If you did this, there is nothing to do. If you did not, someone has your session or your ' +
      'password: undo the change. It restores this address, ends every session and remembered ' +
      'browser of the account and asks you for a new password.',
    { link, label: 'Undo the change and choose a new password' },
    'The link works once, for 7 days.',
  ])

/** To an address replaced in the last 72 hours when a reset link goes to the new one. */
export const resetNoticeMail = (account: string) =>
  compose('a password reset was asked for your former account address', [
    `Someone asked to reset the password of the account ${account}, whose email address was ` +
      'changed from this address in the last 72 hours. The reset link went to the new address.',
    'If you did not change the address, use the undo link we mailed to this address when it was ' +
      'changed (it works for 7 days), or tell an administrator at once.',
  ])

/** After a right password and a refused second step (docs/email.md, one per day). */
export const secondStepNoticeMail = (account: string, address: string, link: string) =>
  compose('your password was used', [
    `The password of the account ${account} was used to sign in from ${address}; the second ` +
      'step (your code or passkey) stopped it.',
    'If this was you (a mistyped code), ignore this mail. If it was not, someone knows your ' +
      'password: choose a new one. That signs out every session and browser of the account.',
    { link, label: 'Choose a new password' },
    'The link works once, for 15 minutes; later, use "Forgot password?" on the sign-in page.',
  ])
