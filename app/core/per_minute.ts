import { type BoundedCache, cache } from '#core/cache'

/** Per key per minute: calendar minutes, the same for every process. */
export const currentMinute = () => Math.floor(Date.now() / 60_000)

const MAX_KEYS = 10_000

/**
 * The one "once per key per minute" throttle (warn lines, access-log refusals, the login log's
 * rows per account): the first `max` occurrences of a key in a minute go through, the later ones
 * of that minute are only counted, and the key's next one through says how many were left out
 * since. A flood so costs `max` lines (rows) per key per minute. Per process and bounded (the
 * oldest key out): a forgotten key goes through again; only the count of what was left out is lost.
 */
export class OncePerMinute {
  #entries: BoundedCache<string, { minute: number; taken: number; skipped: number }>

  /** `name`: its name in the cache home (app/core/cache.ts). */
  constructor(name: string) {
    this.#entries = cache(name, { max: MAX_KEYS })
  }

  /** null: not this minute (counted); otherwise how many were left out before this one. */
  take(key: string, max = 1): number | null {
    const minute = currentMinute()
    const known = this.#entries.get(key)
    if (known?.minute === minute) {
      if (known.taken >= max) {
        known.skipped++
        return null
      }
      known.taken++
      return 0
    }
    this.#entries.set(key, { minute, taken: 1, skipped: 0 })
    return known?.skipped ?? 0
  }
}
