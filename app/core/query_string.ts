import type { HttpRouterService } from '@adonisjs/core/types'

/*
| The query string of every request is parsed by the framework's Qs (@poppinss/qs: nesting,
| arrays, commas, charsets), ~2.5 µs for `pageNum=1&pageSize=10`: half the node CPU this API
| adds over a hand-written server on the public list. A string of plain `key=value` pairs (word
| characters, nothing encoded, no key twice or from Object.prototype) parses the same in one
| scan; anything else still goes to Qs. The framework has no option for it, so its one parser
| (the router's `qs`, which the server hands to every request and redirect) is wrapped here,
| once, at boot (start/kernel.ts). tests/unit/query_string.spec.ts holds both to the same
| answers over every kind of string.
*/

/** Below Qs's parameterLimit (1000 pairs) whatever the pairs. */
const MAX_LENGTH = 1024
/** Character codes a key may hold (word characters and `-`); a value also `.` and `~`. */
const IN_KEY = new Uint8Array(128)
const IN_VALUE = new Uint8Array(128)
for (const char of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-') {
  IN_KEY[char.charCodeAt(0)] = IN_VALUE[char.charCodeAt(0)] = 1
}
for (const char of '.~') IN_VALUE[char.charCodeAt(0)] = 1
const EQUALS = 61
const AMPERSAND = 38

type Parse = (value: string) => Record<string, any>

/** The end of the run of `allowed` characters from `start`. */
function endOf(value: string, start: number, allowed: Uint8Array) {
  let at = start
  while (at < value.length && allowed[value.charCodeAt(at)] === 1) at++
  return at
}

/**
 * `parse`, with plain pairs read without it: `key=value` joined by `&`, no `[`, `,`, `%`, `+`,
 * `.` in a key, no empty key or pair (one scan, no intermediate strings).
 */
export function plainPairsFirst(parse: Parse): Parse {
  return (value) => {
    if (value.length > MAX_LENGTH) return parse(value)
    const pairs: Record<string, string> = {}
    let start = 0
    for (;;) {
      const keyEnd = endOf(value, start, IN_KEY)
      if (keyEnd === start || value.charCodeAt(keyEnd) !== EQUALS) return parse(value)
      const key = value.slice(start, keyEnd)
      // A key twice is an array to Qs; a key of Object.prototype (`in` sees both) is dropped.
      if (key in pairs) return parse(value)
      const valueEnd = endOf(value, keyEnd + 1, IN_VALUE)
      pairs[key] = value.slice(keyEnd + 1, valueEnd)
      if (valueEnd === value.length) return pairs
      if (value.charCodeAt(valueEnd) !== AMPERSAND) return parse(value)
      start = valueEnd + 1
    }
  }
}

/** Wraps the router's query-string parser (the server's, shared by every request). */
export function parsePlainPairsFirst(router: HttpRouterService) {
  router.qs.parse = plainPairsFirst(router.qs.parse)
}
