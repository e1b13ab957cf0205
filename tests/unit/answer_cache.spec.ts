import { test } from '@japa/runner'
import { AnswerCache } from '#services/public/answer_cache'

/** A cache on a clock the test moves. */
function cacheAt(maxEntries: number, maxBytes: number, ttlMs: number) {
  const clock = { now: 1_000 }
  const cache = new AnswerCache<string>(maxEntries, maxBytes, ttlMs, () => clock.now)
  return { cache, clock }
}

test.group('AnswerCache', () => {
  test('keeps the value with its version until the TTL', ({ assert }) => {
    const { cache, clock } = cacheAt(10, 1000, 10_000)
    cache.set('a', 'answer', 7, 10)
    assert.deepInclude(cache.get('a'), { value: 'answer', version: 7 })
    clock.now += 9_999
    assert.equal(cache.get('a')?.value, 'answer')
    clock.now += 1
    assert.isUndefined(cache.get('a'))
    assert.deepEqual(cache.size, { entries: 0, bytes: 0 })
  })

  test('never past validUntil (the next scheduled article falling due)', ({ assert }) => {
    const { cache, clock } = cacheAt(10, 1000, 10_000)
    cache.set('a', 'answer', 1, 10, clock.now + 500)
    clock.now += 499
    assert.isDefined(cache.get('a'))
    clock.now += 1
    assert.isUndefined(cache.get('a'))
    // Already due: not stored at all.
    cache.set('b', 'answer', 1, 10, clock.now)
    assert.isUndefined(cache.get('b'))
  })

  test('bounded in entries: the least recently used goes first', ({ assert }) => {
    const { cache } = cacheAt(2, 1000, 10_000)
    cache.set('a', 'A', 1, 1)
    cache.set('b', 'B', 1, 1)
    cache.get('a')
    cache.set('c', 'C', 1, 1)
    assert.isDefined(cache.get('a'))
    assert.isUndefined(cache.get('b'))
    assert.isDefined(cache.get('c'))
    assert.equal(cache.size.entries, 2)
  })

  test('bounded in bytes; an answer larger than the whole budget is not kept', ({ assert }) => {
    const { cache } = cacheAt(100, 100, 10_000)
    cache.set('a', 'A', 1, 40)
    cache.set('b', 'B', 1, 40)
    cache.set('c', 'C', 1, 40)
    assert.isUndefined(cache.get('a'))
    assert.deepEqual(cache.size, { entries: 2, bytes: 80 })
    cache.set('huge', 'H', 1, 101)
    assert.isUndefined(cache.get('huge'))
    assert.deepEqual(cache.size, { entries: 2, bytes: 80 })
    // Replacing a key gives its old bytes back.
    cache.set('b', 'B2', 2, 10)
    assert.deepEqual(cache.size, { entries: 2, bytes: 50 })
    cache.clear()
    assert.deepEqual(cache.size, { entries: 0, bytes: 0 })
  })
})
