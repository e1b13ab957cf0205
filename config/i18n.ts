import app from '@adonisjs/core/services/app'
import { defineConfig, formatters, loaders } from '@adonisjs/i18n'

/**
 * The languages of the API's messages (docs/architecture.md, "Languages"): `Accept-Language`
 * picks one of `supportedLocales` for error and validation messages; codes and fields never change.
 * Catalogs: resources/lang/<locale>/errors.json and validator.json (ICU message syntax).
 */
const i18nConfig = defineConfig({
  defaultLocale: 'en',
  supportedLocales: ['en', 'zh-CN'],
  formatter: formatters.icu(),
  loaders: [loaders.fs({ location: app.languageFilesPath() })],
})

export default i18nConfig
