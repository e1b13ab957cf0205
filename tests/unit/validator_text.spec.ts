import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { test } from '@japa/runner'
import vine from '@vinejs/vine'
import { line } from '#validators/text'

/*
| Deny by default: every string field of every validator in app/validators is built from
| app/validators/text.ts (`line`, `lines`, `token`), so it refuses control characters; a field
| added with a bare vine.string() fails here. Passwords are the documented exception.
*/
const PASSWORDS = new Set(['password', 'currentPassword', 'newPassword'])

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? files(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : []
  )
}

type Node = {
  type?: string
  subtype?: string
  fieldName?: string
  validations?: { name: string }[]
}

/** The string fields of a compiled schema tree, with the rules each runs. */
function stringFields(node: unknown, path: string, found: [string, string[]][]) {
  if (Array.isArray(node)) {
    for (const child of node) stringFields(child, path, found)
    return
  }
  if (!node || typeof node !== 'object') return
  const field = node as Node
  const here = field.fieldName ? `${path}.${field.fieldName}` : path
  if (field.type === 'literal' && field.subtype === 'string') {
    found.push([here, (field.validations ?? []).map((rule) => rule.name)])
    return
  }
  for (const value of Object.values(node)) stringFields(value, here, found)
}

test.group('Validators: every string refuses control characters', () => {
  test('each string field of each validator runs controlCharacters (passwords aside)', async ({
    assert,
  }) => {
    let validators = 0
    let strings = 0
    const bare: string[] = []
    for (const file of files('app/validators')) {
      const module = await import(pathToFileURL(file).href)
      for (const [name, value] of Object.entries(module)) {
        if (typeof (value as any)?.toJSON !== 'function' || !('validate' in (value as any)))
          continue
        validators++
        const found: [string, string[]][] = []
        stringFields((value as any).toJSON().schema, `${file}:${name}`, found)
        strings += found.length
        for (const [path, rules] of found) {
          const fieldName = path.split('.').at(-1)!
          if (PASSWORDS.has(fieldName)) continue
          if (!rules.includes('controlCharacters')) bare.push(`${path} [${rules.join(', ')}]`)
        }
      }
    }
    assert.isAbove(validators, 40)
    assert.isAbove(strings, 80)
    assert.deepEqual(bare, [], 'build these from app/validators/text.ts')
  })

  test('the walk sees a bare string (the check above can fail)', ({ assert }) => {
    const found: [string, string[]][] = []
    const probe = vine.create({
      ok: line(10),
      bare: vine.string(),
      list: vine.array(vine.string()),
    })
    stringFields(probe.toJSON().schema, 'probe', found)
    assert.deepEqual(found, [
      ['probe.ok', ['trim', 'maxLength', 'controlCharacters']],
      ['probe.bare', []],
      ['probe.list.*', []],
    ])
  })
})
