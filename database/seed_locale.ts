import env, { SEED_LOCALES } from '#start/env'

/**
 * The languages `node ace db:seed` names things in (SEED_LOCALE, default en): display names only
 * (departments, roles, menus, dictionaries, parameters, the first administrator's nickname);
 * codes, paths, values and keys are the same in every language. Each seeded name is written in
 * both languages beside each other, where the seeder's data is.
 */
export { SEED_LOCALES }
export type SeedLocale = (typeof SEED_LOCALES)[number]
export type Localized = Record<SeedLocale, string>

/** The seed's language now (start/env.ts refuses any other value at boot). */
export function seedLocale(): SeedLocale {
  return env.get('SEED_LOCALE') ?? 'en'
}
