import { test } from '@japa/runner'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ERROR_CODES } from '#exceptions/error_codes'

/** Codes the code matches on but never sends (Lucid's, answered E_NOT_FOUND). */
const INBOUND_ONLY = new Set(['E_ROW_NOT_FOUND'])

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true })
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
}

test.group('Error codes: the catalogue the OpenAPI document publishes', () => {
  test('every E_* code used under app/ and start/ is catalogued with its status', async ({
    assert,
  }) => {
    const used = new Set<string>()
    for (const file of [...(await sources('app')), ...(await sources('start'))]) {
      for (const match of (await readFile(file, 'utf8')).matchAll(/'(E_[A-Z_]+)'/g)) {
        used.add(match[1])
      }
    }
    const missing = [...used].filter((code) => !(code in ERROR_CODES) && !INBOUND_ONLY.has(code))
    assert.deepEqual(missing, [])
    assert.isAbove(used.size, 10)
  })
})
