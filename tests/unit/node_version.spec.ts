import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from '@japa/runner'
import ts from 'typescript'

/*
| `npm start`, `node ace` and `npm test` on a Node older than package.json's engines: one line
| naming both versions, exit 1 (bin/node_version.js), never a segfault from a native module built
| for Node 24. Run with the machine's own Node (the machines ship Node 20, DESIGN.md "Stack").
*/
const OLD_NODE = '/usr/bin/node'
const oldVersion = existsSync(OLD_NODE)
  ? spawnSync(OLD_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim()
  : ''
const oldMajor = Number(/^v(\d+)/.exec(oldVersion)?.[1] ?? 0)
const required = Number(
  /\d+/.exec(JSON.parse(readFileSync('package.json', 'utf8')).engines.node)![0]
)
const noOldNode =
  oldMajor === 0
    ? `no ${OLD_NODE} to run`
    : oldMajor >= required
      ? `${OLD_NODE} is ${oldVersion}, not older than Node ${required}`
      : false

function runOld(args: string[], cwd = '.') {
  const run = spawnSync(OLD_NODE, args, { cwd, encoding: 'utf8', timeout: 15_000 })
  return { status: run.status, stdout: run.stdout, lines: run.stderr.trim().split('\n') }
}

function assertRefused(assert: any, run: ReturnType<typeof runOld>) {
  assert.equal(run.status, 1, run.lines.join('\n'))
  assert.equal(run.stdout, '')
  assert.lengthOf(run.lines, 1, run.lines.join('\n'))
  assert.include(run.lines[0], `Node ${required} or newer is required`)
  assert.include(run.lines[0], `found Node ${oldVersion.slice(1)}`)
}

/**
 * bin/server.ts and bin/console.ts as `node ace build` emits them (tsc), in a folder with the
 * check and a package.json but no node_modules: only the check's exit can make them end with its
 * line (anything imported before it would fail on a missing module instead).
 */
function emitted(dir: string) {
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(join(dir, 'bin'), { recursive: true })
  copyFileSync('package.json', join(dir, 'package.json'))
  copyFileSync('bin/node_version.js', join(dir, 'bin/node_version.js'))
  for (const name of ['server', 'console']) {
    const { outputText } = ts.transpileModule(readFileSync(`bin/${name}.ts`, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ESNext },
    })
    writeFileSync(join(dir, `bin/${name}.js`), outputText)
  }
  // What the build writes as its ace.js (@adonisjs/assembler).
  writeFileSync(join(dir, 'ace.js'), "await import('./bin/console.js')\n")
}

test.group('An older Node: one line, exit 1', () => {
  test('ace.js and bin/prepare.js (node ace, npm test, npm run dev)', ({ assert }) => {
    assertRefused(assert, runOld(['ace.js', 'list']))
    assertRefused(assert, runOld(['bin/prepare.js', '--test']))
  }).skip(!!noOldNode, noOldNode || undefined)

  test('the built server and ace (npm start, node ace in build/)', ({ assert }) => {
    const dir = join('tmp', 'node-version-build')
    emitted(dir)
    try {
      assertRefused(assert, runOld(['bin/server.js'], dir))
      assertRefused(assert, runOld(['ace.js', 'migration:run'], dir))
      // The real build, when there is one.
      if (existsSync('build/bin/server.js') && existsSync('build/bin/node_version.js')) {
        assertRefused(assert, runOld(['bin/server.js'], 'build'))
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }).skip(!!noOldNode, noOldNode || undefined)

  test('this Node passes the check', ({ assert }) => {
    const run = spawnSync(process.execPath, ['bin/node_version.js'], { encoding: 'utf8' })
    assert.equal(run.status, 0)
    assert.equal(run.stderr, '')
  })
})
