import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import v8 from 'node:v8'
import vm from 'node:vm'
import { test } from '@japa/runner'
import {
  BoundedCache,
  VersionedCache,
  cache,
  cacheNames,
  forgetAll,
  versionedCache,
} from '#core/cache'

/** A cache on a clock the test moves. */
function cacheAt(max: number, maxBytes: number, ttlMs: number) {
  const clock = { now: 1_000 }
  const held = new BoundedCache<string, string>({ max, maxBytes, ttlMs, now: () => clock.now })
  return { held, clock }
}

test.group('BoundedCache', () => {
  test('keeps a value until its time to live', ({ assert }) => {
    const { held, clock } = cacheAt(10, 1000, 10_000)
    held.set('a', 'answer', { bytes: 10 })
    assert.equal(held.get('a'), 'answer')
    clock.now += 9_999
    assert.equal(held.get('a'), 'answer')
    clock.now += 1
    assert.isUndefined(held.get('a'))
    assert.deepEqual(held.size, { entries: 0, bytes: 0 })
  })

  test('never past validUntil (the next scheduled article falling due)', ({ assert }) => {
    const { held, clock } = cacheAt(10, 1000, 10_000)
    held.set('a', 'answer', { bytes: 10, validUntil: clock.now + 500 })
    clock.now += 499
    assert.isTrue(held.has('a'))
    clock.now += 1
    assert.isFalse(held.has('a'))
    // Already due: not stored at all.
    held.set('b', 'answer', { validUntil: clock.now })
    assert.isUndefined(held.get('b'))
  })

  test('bounded in entries: the oldest (least recently used) goes first', ({ assert }) => {
    const { held } = cacheAt(2, 1000, 10_000)
    held.set('a', 'A')
    held.set('b', 'B')
    held.get('a')
    held.set('c', 'C')
    assert.equal(held.get('a'), 'A')
    assert.isUndefined(held.get('b'))
    assert.equal(held.get('c'), 'C')
    assert.equal(held.size.entries, 2)
  })

  test('a hit on the most recently used key keeps the order of the others', ({ assert }) => {
    const { held } = cacheAt(2, 1000, 10_000)
    held.set('a', 'A')
    held.set('b', 'B')
    held.get('b')
    held.get('b')
    held.get('a')
    held.get('a')
    // b is now the least recently used.
    held.set('c', 'C')
    assert.isUndefined(held.get('b'))
    assert.equal(held.get('a'), 'A')
    // The most recent one deleted: the next hit on another key moves it last again.
    held.delete('a')
    held.get('c')
    held.set('d', 'D')
    held.set('e', 'E')
    assert.deepEqual([held.get('c'), held.get('d'), held.get('e')], [undefined, 'D', 'E'])
    // Replaced under the same key: the new entry is the most recent.
    held.set('d', 'D2')
    held.set('f', 'F')
    assert.deepEqual([held.get('d'), held.get('e'), held.get('f')], ['D2', undefined, 'F'])
  })

  test('bounded in bytes; a value larger than the whole budget is not kept', ({ assert }) => {
    const { held } = cacheAt(100, 100, 10_000)
    held.set('a', 'A', { bytes: 40 })
    held.set('b', 'B', { bytes: 40 })
    held.set('c', 'C', { bytes: 40 })
    assert.isUndefined(held.get('a'))
    assert.deepEqual(held.size, { entries: 2, bytes: 80 })
    held.set('huge', 'H', { bytes: 101 })
    assert.isUndefined(held.get('huge'))
    assert.deepEqual(held.size, { entries: 2, bytes: 80 })
    // Replacing a key gives its old bytes back.
    held.set('b', 'B2', { bytes: 10 })
    assert.deepEqual(held.size, { entries: 2, bytes: 50 })
    held.clear()
    assert.deepEqual(held.size, { entries: 0, bytes: 0 })
  })
  test('the recency order survives hits, deletes and evictions in any position', ({ assert }) => {
    const { held } = cacheAt(3, 1000, 10_000)
    for (const key of ['a', 'b', 'c']) held.set(key, key.toUpperCase())
    held.get('b') // a c b
    held.get('b') // the most recent again: no change
    held.delete('c') // a b
    held.set('d', 'D') // a b d
    held.get('a') // b d a
    held.set('e', 'E') // d a e (b out)
    held.set('f', 'F') // a e f (d out)
    assert.deepEqual(
      ['a', 'b', 'c', 'd', 'e', 'f'].map((key) => held.has(key)),
      [true, false, false, false, true, true]
    )
    held.clear()
    held.set('g', 'G')
    assert.equal(held.get('g'), 'G')
    assert.equal(held.size.entries, 1)
  })

  test('a hit leaves no garbage in the old generation', ({ assert }) => {
    // A long-lived cache's Map is in the old generation; moving a hit to its end (delete + set)
    // made V8 rebuild its table there every few hits: 50-80 bytes per hit that only a full
    // collection frees, what filled the server's old space under load.
    v8.setFlagsFromString('--expose-gc')
    const gc = vm.runInNewContext('gc') as () => void
    const { held } = cacheAt(100, 100_000, 10_000_000)
    const keys = Array.from({ length: 12 }, (_, i) => `key ${i}`)
    for (const key of keys) held.set(key, key)
    const oldSpaceUsed = () =>
      v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!.space_used_size
    gc()
    gc()
    const before = oldSpaceUsed()
    for (let i = 0; i < 100_000; i++) held.get(keys[i % keys.length])
    // The former order-by-Map cost 5-8 MB here.
    assert.isBelow(oldSpaceUsed() - before, 1024 * 1024)
  })
})

test.group('VersionedCache', () => {
  test('an answer is served only at the version it was computed under', async ({ assert }) => {
    const answers = new VersionedCache<string, string>({ max: 10 })
    let loads = 0
    const load = async () => `computed ${++loads}`
    assert.equal(await answers.answer('k', 1, load), 'computed 1')
    assert.equal(await answers.answer('k', 1, load), 'computed 1')
    // The database's version moved: recomputed, and held under the new one.
    assert.equal(await answers.answer('k', 2, load), 'computed 2')
    assert.equal(await answers.answer('k', 2, load), 'computed 2')
    assert.isUndefined(answers.get('k', 1))
    assert.equal(loads, 2)
  })

  test('getIfCurrent reads the version only when something is held', async ({ assert }) => {
    const answers = new VersionedCache<string, string>({ max: 10 })
    let reads = 0
    const current = (version: number) => async () => (reads++, version)
    assert.isUndefined(await answers.getIfCurrent('k', current(3)))
    assert.equal(reads, 0)
    answers.set('k', 'v', 3)
    assert.equal(await answers.getIfCurrent('k', current(3)), 'v')
    assert.isUndefined(await answers.getIfCurrent('k', current(4)))
    assert.equal(reads, 2)
  })
})

test.group('Cache home', () => {
  test('forgetAll empties every registered cache', ({ assert }) => {
    const plain = cache<string, number>('test-plain', { max: 5 })
    const versioned = versionedCache<string, number>('test-versioned', { max: 5 })
    plain.set('a', 1)
    versioned.set('a', 1, 7)
    assert.includeMembers(cacheNames(), ['test-plain', 'test-versioned', 'access-snapshots'])
    forgetAll()
    assert.isUndefined(plain.get('a'))
    assert.isUndefined(versioned.get('a', 7))
  })

  /**
   * Left out: limits.ts `inFlight` is no cache but the work running now per account (each entry
   * leaves when its work settles; forgetting it would let two attempts of one account overlap).
   */
  test('no module of app/ holds a Map or a forget hook of its own', async ({ assert }) => {
    const files = (await readdir('app', { recursive: true })).filter((file) => file.endsWith('.ts'))
    const outside: string[] = []
    for (const file of files) {
      if (file === join('core', 'cache.ts')) continue
      const text = await readFile(join('app', file), 'utf8')
      for (const line of text.split('\n')) {
        if (line.startsWith('const inFlight = new Map<') && file === join('auth', 'limits.ts'))
          continue
        // A forget hook of a cache is synchronous (forgetRememberedDevices deletes rows).
        if (/^(export )?(const|let) \w+(: [^=]+)? = new Map\b|^export function forget/.test(line)) {
          outside.push(`${file}: ${line}`)
        }
      }
    }
    assert.deepEqual(outside, [])
  })
})
