import type { HttpRouterService } from '@adonisjs/core/types'

/*
| The query string of every request is parsed by the framework's Qs (@poppinss/qs: nesting,
| arrays, commas, charsets), ~2.5 µs for `pageNum=1&pageSize=10`: half the node CPU this API
| adds over a hand-written server on the public list. A string of plain `key=value` pairs (word
| characters, nothing encoded, no key twice or from Object.prototype) parses the same by a
| split; anything else still goes to Qs. The framework has no option for it, so its one parser
| (the router's `qs`, which the server hands to every request and redirect) is wrapped here,
| once, at boot (start/kernel.ts). tests/unit/query_string.spec.ts holds both to the same
| answers over every kind of string.
*/

/** Only `key=value` pairs: no `[`, `,`, `%`, `+`, `.` in a key, no empty pair. */
const PLAIN = /^[\w-]+=[\w.~-]*(?:&[\w-]+=[\w.~-]*)*$/
/** Below Qs's parameterLimit (1000 pairs) whatever the pairs. */
const MAX_LENGTH = 1024

type Parse = (value: string) => Record<string, any>

/** `parse`, with plain pairs read without it. */
export function plainPairsFirst(parse: Parse): Parse {
  return (value) => {
    if (value.length > MAX_LENGTH || !PLAIN.test(value)) return parse(value)
    const pairs: Record<string, string> = {}
    for (const pair of value.split('&')) {
      const equals = pair.indexOf('=')
      const key = pair.slice(0, equals)
      // A key twice is an array to Qs; a key of Object.prototype (`in` sees both) is dropped.
      if (key in pairs) return parse(value)
      pairs[key] = pair.slice(equals + 1)
    }
    return pairs
  }
}

/** Wraps the router's query-string parser (the server's, shared by every request). */
export function parsePlainPairsFirst(router: HttpRouterService) {
  router.qs.parse = plainPairsFirst(router.qs.parse)
}
