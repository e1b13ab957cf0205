import { test } from '@japa/runner'
import router from '@adonisjs/core/services/router'
import { Qs } from '@adonisjs/core/http'
import { defineConfig } from '@adonisjs/core/http'
import { plainPairsFirst } from '#core/query_string'

/** The framework's own parser with its default options, and the app's (wrapped at boot). */
const framework = new Qs(defineConfig({}).qs).parse
const wrapped = plainPairsFirst(framework)

/** Every string of `length` characters over `alphabet`. */
function* strings(alphabet: string[], length: number): Generator<string> {
  if (length === 0) return yield ''
  for (const head of alphabet) for (const tail of strings(alphabet, length - 1)) yield head + tail
}

/** Whether both parse `value` alike: same keys in the same order, same values, same prototype. */
const alike = (value: string) => {
  const expected = framework(value)
  const actual = wrapped(value)
  return (
    JSON.stringify(actual) === JSON.stringify(expected) &&
    Object.getPrototypeOf(actual) === Object.getPrototypeOf(expected)
  )
}

test.group('Query strings of plain pairs', () => {
  test('the app parses with the wrapped parser', ({ assert }) => {
    assert.equal(router.qs.parse('pageNum=1&pageSize=10').pageSize, '10')
    assert.notEqual(router.qs.parse, framework)
    assert.deepEqual(router.qs.parse('a[]=1&a[]=2'), { a: ['1', '2'] })
  })

  test('the answers of the framework parser, on the strings the bench and clients send', ({
    assert,
  }) => {
    for (const value of [
      'pageNum=1&pageSize=10',
      'pageNum=2&pageSize=20&sort=oldest&category=news',
      'keyword=hello+world',
      'keyword=%E4%BD%A0%E5%A5%BD',
      'a=1&a=2',
      'a=1&b=2&a=3',
      'a=b,c',
      'toString=1',
      '__proto__=1',
      'constructor=x&b=1',
      'hasOwnProperty=1',
      'a[b]=1',
      'a.b=1',
      'a=',
      'a',
      '=a',
      '&a=1',
      'a=1&',
      'a=1&&b=2',
      '0=a&1=b',
      '2=a&1=b&x=y',
      'a=1.5&b=-2&c=~x',
      'a=%00',
      'a=1;b=2',
      'utf8=%E2%9C%93&a=1',
      `${'k=v&'.repeat(400)}k2=v`,
      Array.from({ length: 300 }, (_, i) => `k${i}=v`).join('&'),
    ]) {
      assert.isTrue(alike(value), value)
      assert.deepEqual(wrapped(value), framework(value), value)
    }
  })

  test('the answers of the framework parser, on every short string of pair characters', ({
    assert,
  }) => {
    const differ: string[] = []
    let checked = 0
    for (let length = 0; length <= 5; length++) {
      for (const value of strings(
        ['a', '0', '=', '&', '.', ',', '[', ']', '%', '+', '-', '~', 'é'],
        length
      )) {
        if (!alike(value)) differ.push(value)
        checked++
      }
    }
    assert.deepEqual(differ, [])
    assert.isAbove(checked, 400_000)
  })
})
