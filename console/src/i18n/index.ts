import polyglotI18nProvider from 'ra-i18n-polyglot'
import englishMessages from 'ra-language-english'
import { mergeTranslations } from 'react-admin'
import { en } from './en'
import { zh } from './zh'
import { LOCALES, currentLocale, storeLocale } from './errors'

/**
 * English and Simplified Chinese. Chinese is merged over English, so a key nobody translated yet
 * shows its English text; `allowMissing` shows a key missing in both as it is written (labels
 * that are plain text, like a menu an administrator renamed).
 */
const english = mergeTranslations(englishMessages, en)
const MESSAGES = { en: english, zh: mergeTranslations(english, zh) }

const polyglot = polyglotI18nProvider(
  (locale) => MESSAGES[locale as keyof typeof MESSAGES] ?? english,
  currentLocale(),
  [...LOCALES],
  { allowMissing: true }
)

/** The choice is also kept where api.ts and the login page read it (errors.ts). */
export const i18nProvider: typeof polyglot = {
  ...polyglot,
  changeLocale: (locale, options) => {
    storeLocale(locale)
    return polyglot.changeLocale(locale, options)
  },
}
