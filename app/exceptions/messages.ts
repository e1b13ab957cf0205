import i18nManager from '@adonisjs/i18n/services/main'
import type { I18n } from '@adonisjs/i18n'
import type { HttpContext } from '@adonisjs/core/http'
import { cache } from '#core/cache'

/**
 * The API's messages in the caller's language (config/i18n.ts): error messages by key from
 * resources/lang/<locale>/errors.json, validation messages from validator.json. No middleware: the
 * language is read from `Accept-Language` only when a message is rendered (an error, a
 * validation), so a request that succeeds pays nothing for it.
 */
const instances = cache<string, I18n>('i18n-instances', { max: 100 })
function i18nFor(locale: string) {
  let i18n = instances.get(locale)
  if (!i18n) instances.set(locale, (i18n = i18nManager.locale(locale)))
  return i18n
}

/**
 * The texts of messages without data, per locale and key: the ICU formatter parses a message at
 * every call (~0.03 ms of a refused login's CPU); the catalogs load at boot, so none goes stale.
 */
const texts = cache<string, string>('message-texts', { max: 10_000 })

/** The message of `key` in `locale` (English by default), `data` filled in. */
export function messageOf(key: string, data?: Record<string, unknown>, locale = 'en') {
  if (data && Object.keys(data).length > 0) return i18nFor(locale).t(`errors.${key}`, data)
  const id = `${locale}\n${key}`
  let text = texts.get(id)
  if (text === undefined) texts.set(id, (text = i18nFor(locale).t(`errors.${key}`)))
  return text
}

/**
 * A policy's refusal (app/policies/grant_rule.ts refuse): the reason, then what is not held
 * (`data.notHeld` names its message, `data.ids` fills it in).
 */
export function refusalOf(identifier: string, data: Record<string, unknown> = {}, locale = 'en') {
  const i18n = i18nFor(locale)
  const reason = i18n.t(identifier, data)
  return typeof data.notHeld === 'string'
    ? `${reason}; ${i18n.t(`errors.${data.notHeld}`, data)}`
    : reason
}

/** A refused row of an upload (RowError) in `locale`. */
export function rowMessageOf(
  entry: {
    message: string
    field: string
    key?: string
    data?: Record<string, unknown>
    refusal?: { identifier: string; data?: Record<string, unknown> }
    rule?: string
    meta?: Record<string, unknown>
  },
  locale: string
) {
  if (entry.key) return messageOf(entry.key, entry.data, locale)
  if (entry.refusal) return refusalOf(entry.refusal.identifier, entry.refusal.data, locale)
  if (entry.rule && locale !== 'en') {
    const field = { name: entry.field, wildCardPath: entry.field } as any
    return i18nFor(locale)
      .createMessagesProvider()
      .getMessage(entry.message, entry.rule, field, { ...entry.meta })
  }
  return entry.message
}

/** Locales per `Accept-Language` value seen (a few distinct values in practice). */
const negotiated = cache<string, string>('negotiated-locales', { max: 1000 })

/** The supported language `Accept-Language` asks for (default `en`). */
export function localeOf(ctx: HttpContext) {
  const header = ctx.request.header('accept-language')
  if (!header) return i18nManager.defaultLocale
  let locale = negotiated.get(header)
  if (locale === undefined) {
    locale = i18nManager.getSupportedLocaleFor(header) ?? i18nManager.defaultLocale
    negotiated.set(header, locale)
  }
  return locale
}

/** An I18n instance for the caller's language (VineJS messages, ICU formatting). */
export const i18nOf = (ctx: HttpContext) => i18nFor(localeOf(ctx))
