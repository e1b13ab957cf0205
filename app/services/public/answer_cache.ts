import { hash } from 'node:crypto'

/**
 * A small in-memory cache of answers, each tagged with the data version it was read at.
 *
 * Bounded three ways: entries, approximate bytes (the size the caller declares, e.g. the answer's
 * JSON length), and time: an entry lives at most `ttlMs`, and never past the `validUntil` given
 * with it. When full, the least recently used entries go first. Per process, like the rest of the
 * public module's caches; nothing here is shared between instances.
 */
export type CachedAnswer<V> = { value: V; version: number; expiresAt: number; bytes: number }

/** A statement as sent: its SQL text and its bindings (knex's `toSQL()` shape). */
export type Statement = { sql: string; bindings: unknown[] }

/**
 * Bound in place of the request time when a statement is built for its cache key: the time
 * differs on every request and is not a filter (the cached answer is tagged with its version and
 * expiry instead). Nothing else is left out.
 */
export const CLOCK = null

/**
 * The cache key of an answer: the statement that reads it, text and bindings, so the key holds
 * whatever the query really uses (a filter added to the query is in the key). Hashed: the texts
 * are long, and the key's length counts in an entry's bytes.
 */
export function statementKey(statement: Statement): string {
  return hash('sha256', JSON.stringify([statement.sql, statement.bindings]), 'base64url')
}

export class AnswerCache<V> {
  #entries = new Map<string, CachedAnswer<V>>()
  #bytes = 0

  constructor(
    public maxEntries: number,
    public maxBytes: number,
    public ttlMs: number,
    protected now: () => number = Date.now
  ) {}

  /** Entries held and their declared bytes. */
  get size() {
    return { entries: this.#entries.size, bytes: this.#bytes }
  }

  /** The live entry under `key`, whatever its version (the caller compares), or undefined. */
  get(key: string): CachedAnswer<V> | undefined {
    const entry = this.#entries.get(key)
    if (!entry) return undefined
    if (this.now() >= entry.expiresAt) {
      this.delete(key)
      return undefined
    }
    // Most recently used last: eviction takes from the front.
    this.#entries.delete(key)
    this.#entries.set(key, entry)
    return entry
  }

  set(key: string, value: V, version: number, bytes: number, validUntil = Infinity) {
    this.delete(key)
    if (bytes > this.maxBytes || this.maxEntries < 1) return
    const expiresAt = Math.min(this.now() + this.ttlMs, validUntil)
    if (expiresAt <= this.now()) return
    while (
      this.#entries.size >= this.maxEntries ||
      (this.#entries.size > 0 && this.#bytes + bytes > this.maxBytes)
    ) {
      this.delete(this.#entries.keys().next().value!)
    }
    this.#entries.set(key, { value, version, expiresAt, bytes })
    this.#bytes += bytes
  }

  delete(key: string) {
    const entry = this.#entries.get(key)
    if (!entry) return
    this.#entries.delete(key)
    this.#bytes -= entry.bytes
  }

  clear() {
    this.#entries.clear()
    this.#bytes = 0
  }
}
