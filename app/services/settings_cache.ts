import { FreshRead } from '#core/fresh_read'
import { preparedQuery } from '#core/prepared_query'

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
const MAX_ENTRIES = 1_000

const versionRead = new FreshRead(async () => {
  const [row] = await preparedQuery<{ version: string | number }>(
    'SELECT version FROM settings_version WHERE id = 1',
    []
  )
  return Number(row.version)
})

let cachedVersion = -1
const entries = new Map<string, unknown>()

/** The answer under `key` at the current settings version, read by `load` when not cached. */
export async function settingsAnswer<V>(key: string, load: () => Promise<V>): Promise<V> {
  const version = await versionRead.get()
  if (version !== cachedVersion) {
    entries.clear()
    cachedVersion = version
  }
  if (entries.has(key)) return entries.get(key) as V
  const value = await load()
  if (cachedVersion === version) {
    if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!)
    entries.set(key, value)
  }
  return value
}

/** Tests: a rolled-back test rewinds the version, which production never does. */
export function forgetSettings() {
  entries.clear()
  cachedVersion = -1
}
