import vine from '@vinejs/vine'

/**
 * Every string a request carries is built here (a test walks every validator and fails on a
 * string field built otherwise: tests/unit/validator_text.spec.ts). Text ends up in mails, mail
 * headers, CSV exports, logs and other administrators' screens, so control characters are
 * refused (422, rule `controlCharacters`) before anything stores or sends them: C0 (U+0000-U+001F),
 * DEL and C1 (U+0080-U+009F). VineJS's `email()` alone takes a CR/LF inside a quoted local part.
 *
 * - `line`: one line (names, titles, emails, accounts, filters), trimmed.
 * - `lines`: text that may span lines (notice and article bodies, summaries, remarks, parameter
 *   values): tab and line feed kept, CRLF and CR read as LF, every other control refused.
 * - `token`: a secret, code or identifier matched as given (not trimmed); its format narrows it
 *   further.
 * Passwords are the one exception: never shown nor sent, hashed as given (app/validators/*).
 */
const CONTROL = /\p{Cc}/u
/** A control character but tab and line feed. */
const CONTROL_BUT_LINES = /[^\P{Cc}\t\n]/u

const controlCharacters = vine.createRule<{ lines: boolean }>(
  (value, { lines }, field) => {
    if (typeof value !== 'string') return
    if ((lines ? CONTROL_BUT_LINES : CONTROL).test(value)) {
      field.report(
        'The {{ field }} field must not contain control characters',
        'controlCharacters',
        field
      )
    }
  },
  { name: 'controlCharacters' }
)

/** One line of text, trimmed, at most `max` characters. */
export const line = (max: number) =>
  vine
    .string()
    .trim()
    .maxLength(max)
    .use(controlCharacters({ lines: false }))

/**
 * Text of several lines (tabs and line feeds; CRLF and CR become LF), trimmed unless told
 * otherwise (a parameter's value is kept as given).
 */
export const lines = (max: number, { trim = true } = {}) => {
  const text = vine
    .string()
    .parse((value) => (typeof value === 'string' ? value.replace(/\r\n?/g, '\n') : value))
  if (trim) text.trim()
  return text.maxLength(max).use(controlCharacters({ lines: true }))
}

/** A token, code or identifier, as given. */
export const token = (max: number) =>
  vine
    .string()
    .maxLength(max)
    .use(controlCharacters({ lines: false }))

/** An email address (one line, at most 254 characters). */
export const emailAddress = () => line(254).email()
