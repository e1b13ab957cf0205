import { test } from '@japa/runner'
import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { digest, newSecret } from '#core/secrets'

const APP = join(import.meta.dirname, '../../app')

async function sourcesOf(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true })
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) return sourcesOf(path)
      return entry.name.endsWith('.ts') ? [path] : []
    })
  )
  return nested.flat()
}

test.group('Single-use secrets: one digest (app/core/secrets.ts)', () => {
  test('createHash sha256 stands in one app module only', async ({ assert }) => {
    const found: string[] = []
    for (const path of await sourcesOf(APP)) {
      const text = await readFile(path, 'utf8')
      if (/createHash\(\s*['"`]sha256/i.test(text)) found.push(path.slice(APP.length + 1))
    }
    assert.deepEqual(found, ['core/secrets.ts'])
  })

  test('the digest is plain SHA-256 (stored digests of existing tokens keep matching)', ({
    assert,
  }) => {
    assert.equal(digest('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    assert.equal(digest('abc', 'base64url'), 'ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0')
    assert.match(newSecret(), /^[\w-]{43}$/)
    assert.notEqual(newSecret(), newSecret())
  })
})
