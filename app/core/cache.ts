/**
 * The one home of in-process caches (docs/architecture.md, "Caches"). Every cache is made here,
 * bounded (entries; optionally declared bytes and a time to live) and registered by its name, so
 * `forgetAll()` empties them all: the tests call it between tests (a rolled-back test rewinds the
 * database's versions, which production never does) and no cache has to be listed by hand.
 * Per process: nothing here is shared between instances.
 */

/** An entry, linked in recency order (`older` toward the next to evict). */
type Entry<K, V> = {
  key: K
  value: V
  expiresAt: number
  bytes: number
  older?: Entry<K, V>
  newer?: Entry<K, V>
}

export type CacheOptions = {
  /** Entries held at most: when full, the least recently used goes first. */
  max: number
  /** Declared bytes held at most (the caller says what an entry weighs). */
  maxBytes?: number
  /** How long an entry lives at most. */
  ttlMs?: number
  /** The clock (tests move it). */
  now?: () => number
}

/**
 * Recency is a list through the entries, not the Map's order: a hit relinks two entries and
 * allocates nothing. Moving a hit to the Map's end (delete + set) made V8 rebuild the Map's table
 * every few hits, in the old generation where a long-lived Map's table is: 50-80 bytes of
 * garbage per hit that only a full collection frees (the old space of a server under load grew
 * by ~4 MB/s on the public list and detail from this alone).
 */
export class BoundedCache<K, V> {
  #entries = new Map<K, Entry<K, V>>()
  /** The least recently used (evicted first) and the most recently used. */
  #oldest?: Entry<K, V>
  #newest?: Entry<K, V>
  #bytes = 0
  readonly max: number
  readonly maxBytes: number
  readonly ttlMs: number
  #now: () => number

  constructor(options: CacheOptions) {
    this.max = options.max
    this.maxBytes = options.maxBytes ?? Infinity
    this.ttlMs = options.ttlMs ?? Infinity
    this.#now = options.now ?? Date.now
  }

  /** Entries held and their declared bytes. */
  get size() {
    return { entries: this.#entries.size, bytes: this.#bytes }
  }

  has(key: K) {
    return this.#live(key) !== undefined
  }

  get(key: K): V | undefined {
    const entry = this.#live(key)
    if (!entry) return undefined
    if (entry !== this.#newest) {
      this.#unlink(entry)
      this.#append(entry)
    }
    return entry.value
  }

  /** Holds `value` (never past `validUntil`, epoch ms); not kept when larger than the budget. */
  set(key: K, value: V, options: { bytes?: number; validUntil?: number } = {}) {
    const bytes = options.bytes ?? 0
    this.delete(key)
    if (bytes > this.maxBytes || this.max < 1) return
    const now = this.#now()
    const expiresAt = Math.min(now + this.ttlMs, options.validUntil ?? Infinity)
    if (expiresAt <= now) return
    while (
      this.#entries.size >= this.max ||
      (this.#entries.size > 0 && this.#bytes + bytes > this.maxBytes)
    ) {
      this.delete(this.#oldest!.key)
    }
    const entry: Entry<K, V> = { key, value, expiresAt, bytes, older: undefined, newer: undefined }
    this.#entries.set(key, entry)
    this.#append(entry)
    this.#bytes += bytes
  }

  delete(key: K) {
    const entry = this.#entries.get(key)
    if (!entry) return
    this.#entries.delete(key)
    this.#unlink(entry)
    this.#bytes -= entry.bytes
  }

  clear() {
    this.#entries.clear()
    this.#oldest = this.#newest = undefined
    this.#bytes = 0
  }

  #live(key: K): Entry<K, V> | undefined {
    const entry = this.#entries.get(key)
    if (entry && entry.expiresAt !== Infinity && this.#now() >= entry.expiresAt) {
      this.delete(key)
      return undefined
    }
    return entry
  }

  #unlink(entry: Entry<K, V>) {
    if (entry.older) entry.older.newer = entry.newer
    else this.#oldest = entry.newer
    if (entry.newer) entry.newer.older = entry.older
    else this.#newest = entry.older
    entry.older = entry.newer = undefined
  }

  #append(entry: Entry<K, V>) {
    entry.older = this.#newest
    if (this.#newest) this.#newest.newer = entry
    else this.#oldest = entry
    this.#newest = entry
  }
}

/**
 * Answers each held with the database version it was computed under (a counter bumped by
 * triggers on every write of the tables the answer reads): one is served only to a caller that
 * saw that same version, so it can never be stale; when the version moved, it is recomputed.
 * An answer may be held under the version read with it (newer than the caller's): the next
 * caller at that version uses it.
 */
/** A database version: a counter, or several read together (joined in a string). */
export type Version = number | string

export class VersionedCache<K, V> {
  readonly held: BoundedCache<K, { value: V; version: Version }>

  constructor(options: CacheOptions) {
    this.held = new BoundedCache(options)
  }

  /** The answer under `key` if it was computed at `version`. */
  get(key: K, version: Version): V | undefined {
    const hit = this.held.get(key)
    return hit && hit.version === version ? hit.value : undefined
  }

  /**
   * The answer under `key` if the database still holds the version it was computed at; the
   * version is read (`current`) only when an answer is held.
   */
  async getIfCurrent(key: K, current: () => Promise<Version>): Promise<V | undefined> {
    const hit = this.held.get(key)
    return hit && hit.version === (await current()) ? hit.value : undefined
  }

  set(key: K, value: V, version: Version, options?: { bytes?: number; validUntil?: number }) {
    this.held.set(key, { value, version }, options)
  }

  /** The answer at `version`: held, or computed by `load` and held under that version. */
  async answer(key: K, version: Version, load: () => Promise<V>): Promise<V> {
    const hit = this.get(key, version)
    if (hit !== undefined) return hit
    const value = await load()
    this.set(key, value, version)
    return value
  }

  clear() {
    this.held.clear()
  }
}

const registry = new Map<string, { clear(): void }>()

/** A name made again (a module reloaded in development) names the new cache. */
function register<C extends { clear(): void }>(name: string, made: C): C {
  registry.set(name, made)
  return made
}

/** A bounded cache, registered under `name`. */
export function cache<K, V>(name: string, options: CacheOptions): BoundedCache<K, V> {
  return register(name, new BoundedCache<K, V>(options))
}

/** A cache of answers held under a database version (VersionedCache), registered under `name`. */
export function versionedCache<K, V>(name: string, options: CacheOptions): VersionedCache<K, V> {
  return register(name, new VersionedCache<K, V>(options))
}

/** The names of the registered caches. */
export function cacheNames(): string[] {
  return [...registry.keys()]
}

/** Empties every registered cache. */
export function forgetAll() {
  for (const registered of registry.values()) registered.clear()
}
