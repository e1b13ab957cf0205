import { test } from '@japa/runner'
import fc from 'fast-check'
import { ID_PARAM, positiveUpTo } from '#core/route_ids'
import { MAX_ID } from '#validators/admin/common'

test.group('Route ids: the one numeric matcher', () => {
  test('accepts exactly 1..2147483647 written plainly', ({ assert }) => {
    const accepts = (text: string) => ID_PARAM.match.test(text)
    for (const text of ['1', '9', '10', '999999999', '1000000000', '2147483646', '2147483647']) {
      assert.isTrue(accepts(text), text)
    }
    for (const text of ['0', '01', '-1', '+1', '1.0', '1e3', ' 1', '1 ', '', '2147483648']) {
      assert.isFalse(accepts(text), text)
    }
    for (const text of ['2147483650', '2147484000', '2200000000', '3000000000', '99999999999']) {
      assert.isFalse(accepts(text), text)
    }
    assert.strictEqual(ID_PARAM.cast('2147483647'), MAX_ID)
  })

  test('agrees with a numeric comparison, for any bound and any integer', ({ assert }) => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.maxSafeNat()),
        (max, value) => {
          const pattern = positiveUpTo(max)
          const near = [value, max - 1, max, max + 1].filter((n) => n >= 0)
          for (const n of near) assert.equal(pattern.test(String(n)), n >= 1 && n <= max, `${n}`)
        }
      ),
      { numRuns: 2000 }
    )
  })
})
