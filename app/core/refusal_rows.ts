import { currentMinute } from '#core/per_minute'
import { type BoundedCache, cache } from '#core/cache'

/**
 * Refused attempts are written aggregated (docs/architecture.md, "Accountability"): the first refusal of a key
 * in a minute inserts a row, the later ones of that minute add one to its `count` (an UPDATE of
 * the row remembered here). A flood of refusals so costs one row per key per minute instead of
 * one per request. Successful logins and audited writes never come through here.
 *
 * The memory is per process and bounded (MAX_KEYS, the oldest key out). Several instances each
 * write their own row for a key in the same minute, and a forgotten key (a full map, a restart)
 * simply starts a new row: the rows stay few, and the counts of all rows of a key still sum to
 * its attempts.
 */
const MAX_KEYS = 10_000

type Entry<Row> = { minute: number; row: Promise<Row> }

export class RefusalRows<Row> {
  #entries: BoundedCache<string, Entry<Row>>

  /** `name`: its name in the cache home (app/core/cache.ts). */
  constructor(name: string) {
    this.#entries = cache(name, { max: MAX_KEYS })
  }

  /** Whether this minute already has a row (or one being inserted) for the key. */
  has(key: string) {
    return this.#entries.get(key)?.minute === currentMinute()
  }

  /**
   * Counts one refusal of `key`: `increment` the row of this minute (it answers false when the
   * row is gone: pruned, or never committed), else `insert` a new one and remember it.
   */
  async record(
    key: string,
    insert: () => Promise<Row>,
    increment: (row: Row) => Promise<boolean>
  ): Promise<void> {
    const minute = currentMinute()
    const known = this.#entries.get(key)
    if (known?.minute === minute) {
      const row = await known.row.catch(() => null)
      if (row !== null && (await increment(row))) return
    }
    const entry = { minute, row: insert() }
    this.#entries.set(key, entry)
    try {
      await entry.row
    } catch (error) {
      if (this.#entries.get(key) === entry) this.#entries.delete(key)
      throw error
    }
  }
}
