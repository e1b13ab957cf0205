import { test } from '@japa/runner'
import { pathToFileURL } from 'node:url'
import app from '@adonisjs/core/services/app'

/*
| The console's two languages (console/src/i18n/), read from the modules themselves. zh.ts is
| typed complete against en.ts and errors.ts against the API's code list, so the console's
| typecheck already refuses a missing key; this checks the same at run time, and what types
| cannot: a "translation" left in English, a placeholder lost on the way.
*/

type Tree = { [key: string]: string | Tree }

/** Imported by path: the console is its own package, outside the API's TypeScript project. */
const load = async <T>(file: string): Promise<T> =>
  import(pathToFileURL(app.makePath('console/src/i18n', file)).href)

/** Every leaf of a message tree as `path -> text`. */
function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const found = new Map<string, string>()
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key
    if (typeof value === 'string') found.set(path, value)
    else for (const [leaf, text] of leaves(value, path)) found.set(leaf, text)
  }
  return found
}

/** Texts that are the same in Chinese (abbreviations read as they are). */
const SAME_IN_CHINESE = new Set(['ID', 'IP', 'JSON'])
const CJK = /[\u4e00-\u9fff]/
const placeholders = (text: string) => [...text.matchAll(/%\{(\w+)\}/g)].map((m) => m[1]).sort()
const unique = (items: string[]) => [...new Set(items)]

/** The keys of one language missing in the other, the untranslated texts, the lost placeholders. */
function compare(english: Map<string, string>, chinese: Map<string, string>) {
  return {
    missingInChinese: [...english.keys()].filter((key) => !chinese.has(key)),
    missingInEnglish: [...chinese.keys()].filter((key) => !english.has(key)),
    untranslated: [...chinese]
      .filter(([, text]) => !CJK.test(text) && !SAME_IN_CHINESE.has(text))
      .map(([key]) => key),
    placeholders: [...english]
      .filter(([key]) => chinese.has(key))
      .filter(([key, text]) => {
        const zh = unique(placeholders(chinese.get(key)!))
        return unique(placeholders(text)).join() !== zh.join()
      })
      .map(([key]) => key),
  }
}
const CLEAN = { missingInChinese: [], missingInEnglish: [], untranslated: [], placeholders: [] }

test.group('Console i18n: English and Chinese hold the same keys', () => {
  test("the console's own texts (app.*) and the resources' labels", async ({ assert }) => {
    const { en } = await load<{ en: Tree }>('en.ts')
    const { zh } = await load<{ zh: Tree }>('zh.ts')
    const english = leaves({ app: en.app, resources: en.resources })
    const chinese = leaves({ app: zh.app, resources: zh.resources })
    assert.isAbove(english.size, 200)
    // Chinese adds the field names shared by every resource (react-admin's default labels are
    // the English field names); it lacks nothing of English's.
    const added = [...chinese.keys()].filter((key) => !english.has(key))
    assert.isTrue(
      added.every((key) => /^resources\.[\w-]+\.fields\.\w+$/.test(key)),
      `${added}`
    )
    for (const key of added) chinese.delete(key)
    assert.deepEqual(compare(english, chinese), CLEAN)
  })

  test("the API's error codes", async ({ assert }) => {
    const { ERRORS } = await load<{ ERRORS: { en: Tree; zh: Tree } }>('errors.ts')
    assert.isAbove(Object.keys(ERRORS.en).length, 20)
    assert.deepEqual(compare(leaves(ERRORS.en), leaves(ERRORS.zh)), CLEAN)
  })

  test('the checks fail on what they look for', ({ assert }) => {
    const english = leaves({ a: 'Hello %{name}', b: 'Bye', c: { d: 'ID' } })
    const chinese = leaves({ a: '你好', c: { d: 'ID', e: 'Extra' } })
    assert.deepEqual(compare(english, chinese), {
      missingInChinese: ['b'],
      missingInEnglish: ['c.e'],
      untranslated: ['c.e'],
      placeholders: ['a'],
    })
  })
})
