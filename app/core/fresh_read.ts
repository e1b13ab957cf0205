import db from '@adonisjs/lucid/services/db'
import { preparedQuery } from '#core/prepared_query'

/**
 * Reads shared by the callers that asked at about the same time, never a read sent before a
 * caller asked. A caller joins the batch not yet sent, or sends one when no batch is in flight;
 * while a batch is in flight (sent before this caller arrived, so it may miss a write committed
 * since), the caller's key goes into the next batch, sent as soon as that one is back. Every
 * caller therefore sees at least what was committed when it called, as with a read of its own,
 * while N concurrent callers cost one statement per round trip instead of N. Errors reach every
 * caller of the batch.
 */
export class FreshReads<V> {
  #inFlight?: Promise<unknown>
  #next?: { keys: Set<string>; result: Promise<Map<string, V>> }

  /** `readMany` answers every key it is given that exists (missing keys: undefined). */
  constructor(private readMany: (keys: string[]) => Promise<Map<string, V>>) {}

  async get(key: string): Promise<V | undefined> {
    let result: Promise<Map<string, V>>
    if (this.#next) {
      this.#next.keys.add(key)
      result = this.#next.result
    } else if (!this.#inFlight) {
      result = this.#send([key])
    } else {
      const next = { keys: new Set([key]), result: undefined as any }
      next.result = this.#inFlight.then(
        () => this.#sendNext(next.keys),
        () => this.#sendNext(next.keys)
      )
      this.#next = next
      result = next.result
    }
    const values = await result
    return values.get(key)
  }

  #sendNext(keys: Set<string>) {
    this.#next = undefined
    return this.#send([...keys])
  }

  #send(keys: string[]): Promise<Map<string, V>> {
    const read = this.readMany(keys)
    this.#inFlight = read
    const done = () => {
      if (this.#inFlight === read) this.#inFlight = undefined
    }
    read.then(done, done)
    return read
  }
}

/** One value read fresh for each caller, shared as FreshReads shares (the articles version). */
export class FreshRead<V> {
  #reads: FreshReads<V>

  constructor(read: () => Promise<V>) {
    this.#reads = new FreshReads(async () => new Map([['', await read()]]))
  }

  /** FreshReads' promise itself: its one key is always answered (no await of its own). */
  get(): Promise<V> {
    return this.#reads.get('') as Promise<V>
  }
}

/**
 * The counter of a version table (`articles_version`, `settings_version`, ...: one row, id 1,
 * bumped by triggers on every write of what it covers), read fresh for each caller (FreshRead).
 */
export function versionRead(table: `${string}_version`, connection?: string): FreshRead<number> {
  const sql = `SELECT version FROM ${table} WHERE id = 1`
  return new FreshRead(async () => {
    const client = db.connection(connection)
    const [row] = await preparedQuery<{ version: string | number }>(sql, [], { client })
    return Number(row.version)
  })
}
