import { test } from '@japa/runner'
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import app from '@adonisjs/core/services/app'

/**
 * The separation rule (docs/public-modules.md, recipe step 7, "admin code is not reused"): public
 * modules never reuse admin controllers, services, validators or transformers. Checked on the
 * import graph, transitively, so an indirect path through a shared helper fails as well.
 */
const PUBLIC_ROOTS = [
  'start/routes/public.ts',
  'app/controllers/public',
  'app/services/public',
  'app/validators/public',
  'app/transformers/public',
]
const ADMIN_FOLDERS = [
  'app/controllers/admin/',
  'app/services/admin/',
  'app/validators/admin/',
  'app/transformers/admin/',
]

const root = () => app.makePath()

function filesUnder(path: string): string[] {
  const absolute = join(root(), path)
  if (!existsSync(absolute)) return []
  if (statSync(absolute).isFile()) return [absolute]
  return readdirSync(absolute, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(absolute, name))
}

/** Static imports, re-exports, side-effect imports and dynamic import('...') specifiers. */
function specifiers(source: string): string[] {
  const found: string[] = []
  const patterns = [
    /\bfrom\s+['"]([^'"]+)['"]/g,
    /\bimport\s+['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ]
  for (const pattern of patterns) {
    for (const match of source.matchAll(pattern)) found.push(match[1])
  }
  return found
}

/** Resolves a project-local specifier (#alias/... or ./relative) to a .ts file, else null. */
function resolveLocal(specifier: string, fromFile: string, aliases: Record<string, string>) {
  let target: string | null = null
  if (specifier.startsWith('.')) {
    target = resolve(dirname(fromFile), specifier)
  } else if (specifier.startsWith('#')) {
    for (const [pattern, replacement] of Object.entries(aliases)) {
      const prefix = pattern.replace('*', '')
      if (specifier.startsWith(prefix)) {
        target = join(root(), replacement.replace('*', specifier.slice(prefix.length)))
      }
    }
  }
  if (!target) return null
  const candidate = target.replace(/\.js$/, '.ts')
  return existsSync(candidate) ? candidate : null
}

test.group('Public modules: separation from admin code', () => {
  test('no public file imports admin controllers, services, validators or transformers', ({
    assert,
  }) => {
    const aliases: Record<string, string> = JSON.parse(
      readFileSync(join(root(), 'package.json'), 'utf8')
    ).imports
    const start = PUBLIC_ROOTS.flatMap(filesUnder)
    assert.isAbove(start.length, 4, 'the public module files were found')

    const seen = new Set<string>()
    const queue = [...start]
    const offences: string[] = []
    while (queue.length) {
      const file = queue.shift()!
      if (seen.has(file)) continue
      seen.add(file)
      for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
        // The generated controller index lists every controller lazily; only what a public
        // route file picks from it matters, and that is checked below.
        if (specifier.startsWith('#generated/')) continue
        if (/^#(controllers|services|validators|transformers)\/admin(\/|$)/.test(specifier)) {
          offences.push(`${relative(root(), file)} imports ${specifier}`)
          continue
        }
        const target = resolveLocal(specifier, file, aliases)
        if (!target) continue
        const path = relative(root(), target)
        if (ADMIN_FOLDERS.some((folder) => path.startsWith(folder))) {
          offences.push(`${relative(root(), file)} imports ${path}`)
        } else {
          queue.push(target)
        }
      }
    }
    const routes = readFileSync(join(root(), 'start/routes/public.ts'), 'utf8')
    if (/controllers\.admin\b/.test(routes))
      offences.push('start/routes/public.ts uses controllers.admin')
    assert.deepEqual(offences, [])
  })
})
