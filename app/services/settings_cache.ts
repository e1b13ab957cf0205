import { versionRead } from '#core/fresh_read'
import { versionedCache } from '#core/cache'

/**
 * Answers read from dictionaries and parameters, kept in process for the settings version the
 * database holds (docs/admin-modules.md, "Back-office modules"). Triggers bump
 * `settings_version` on every write of dict_types, dict_items and params (any writer, raw SQL
 * included), and every request reads the version afresh (shared by concurrent requests:
 * FreshRead, never a read sent before the request arrived), so an answer cached at an older
 * version is never served: a change shows on the next request of every instance. The cost when
 * nothing changed is that one indexed read of one row; after a change, the answer's own query.
 *
 * An answer is cached under the version read before its query ran: a write committed in between
 * makes it newer than its tag, never older, and the next request sees the new version anyway.
 */
const settingsVersion = versionRead('settings_version')
const answers = versionedCache<string, unknown>('settings', { max: 1_000 })

/** The answer under `key` at the current settings version, read by `load` when not cached. */
export async function settingsAnswer<V>(key: string, load: () => Promise<V>): Promise<V> {
  return (await answers.answer(key, await settingsVersion.get(), load)) as V
}
