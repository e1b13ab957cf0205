import { currentMinute } from '#core/refusal_rows'

const MAX_KEYS = 10_000

/**
 * Once per key per minute, as the login log's refusal rows (app/core/refusal_rows.ts): the
 * first occurrence of a key in a minute is written, the later ones of that minute are only
 * counted, and the key's next written line says how many were left out since its previous one.
 * A flood of refusals so costs one log line per key per minute. Per process and bounded: a
 * forgotten key (a full map) is written again, nothing is lost but the count of what was left out.
 */
export class OncePerMinute {
  #entries = new Map<string, { minute: number; skipped: number }>()

  /** null: not to be written (counted); otherwise how many were left out before this one. */
  take(key: string): number | null {
    const minute = currentMinute()
    const known = this.#entries.get(key)
    if (known?.minute === minute) {
      known.skipped++
      return null
    }
    if (!known && this.#entries.size >= MAX_KEYS) {
      for (const [old, entry] of this.#entries)
        if (entry.minute !== minute) this.#entries.delete(old)
      if (this.#entries.size >= MAX_KEYS) this.#entries.clear()
    }
    this.#entries.set(key, { minute, skipped: 0 })
    return known?.skipped ?? 0
  }

  forget() {
    this.#entries.clear()
  }
}
