/*
| `node ace build`, after the compiled files, package.json and package-lock.json are in the
| output directory (adonisrc.ts, hooks.buildFinished). Runs in the assembler, not in the app.
|
| 1. The reference page's script (/api/docs): Scalar's standalone bundle, checked against the
|    version and digest the app pins (app/openapi/reference_assets.ts), is copied into the build,
|    so @scalar/api-reference (215 MB with vue, icons and highlighters) is a devDependency.
| 2. The production package files: package.json without devDependencies and its lockfile pruned
|    to match. With the project's own lockfile, `npm ci --omit=dev` would still install the
|    assembler, typescript, ts-morph, ast-grep and japa: they are devDependencies here and
|    optional peer dependencies of @adonisjs/core, auth, lucid, ..., which npm marks
|    "devOptional" and leaves out only when optional dependencies are omitted as well (and
|    sharp's platform binary is one). Every package left in the pruned lockfile must be in the
|    project's, same version, same integrity: nothing is resolved anew.
*/
import { createHash } from 'node:crypto'
import { execFile } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'
import { promisify } from 'node:util'
import type { Bundler } from '@adonisjs/assembler'
import {
  SCALAR_BUNDLE_IN_BUILD,
  SCALAR_BUNDLE_IN_PACKAGE,
  SCALAR_SCRIPT,
} from '#openapi/reference_assets'

type Lockfile = {
  packages: Record<string, { version?: string; integrity?: string; link?: boolean }>
}

/** The output directory of tsconfig.json (what the bundler compiled to). */
async function outputDirectory(root: string) {
  const { default: ts } = await import('typescript')
  const file = join(root, 'tsconfig.json')
  const { config, error } = ts.readConfigFile(file, ts.sys.readFile)
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'))
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root)
  if (!options.outDir) throw new Error('tsconfig.json has no compilerOptions.outDir')
  return options.outDir
}

async function copyReferenceBundle(root: string, outDir: string) {
  const pkgDir = join(root, 'node_modules/@scalar/api-reference')
  const { version } = JSON.parse(await readFile(join(pkgDir, 'package.json'), 'utf8'))
  if (version !== SCALAR_SCRIPT.version) {
    throw new Error(
      `@scalar/api-reference ${version} is installed, the app pins ${SCALAR_SCRIPT.version} ` +
        '(app/openapi/reference_assets.ts): run npm ci'
    )
  }
  const bundle = await readFile(join(root, SCALAR_BUNDLE_IN_PACKAGE))
  const digest = `sha384-${createHash('sha384').update(bundle).digest('base64')}`
  if (digest !== SCALAR_SCRIPT.integrity) {
    throw new Error(
      `${SCALAR_BUNDLE_IN_PACKAGE} has digest ${digest}, the app pins ${SCALAR_SCRIPT.integrity}`
    )
  }
  const target = join(outDir, SCALAR_BUNDLE_IN_BUILD)
  await mkdir(dirname(target), { recursive: true })
  await writeFile(target, bundle)
  return target
}

const packageName = (path: string) => path.slice(path.lastIndexOf('node_modules/') + 13)

async function pruneDevDependencies(root: string, outDir: string) {
  const pkgFile = join(outDir, 'package.json')
  const pkg = JSON.parse(await readFile(pkgFile, 'utf8'))
  delete pkg.devDependencies
  await writeFile(pkgFile, JSON.stringify(pkg, null, 2) + '\n')

  // npm keeps every locked version that still satisfies package.json and drops the rest.
  await promisify(execFile)(
    'npm',
    [
      'install',
      '--package-lock-only',
      '--ignore-scripts',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
    ],
    { cwd: outDir, shell: process.platform === 'win32' }
  )

  const read = async (dir: string): Promise<Lockfile> =>
    JSON.parse(await readFile(join(dir, 'package-lock.json'), 'utf8'))
  const [project, pruned] = await Promise.all([read(root), read(outDir)])
  const locked = new Set(
    Object.entries(project.packages).map(
      ([path, entry]) => `${packageName(path)}@${entry.version} ${entry.integrity}`
    )
  )
  const entries = Object.entries(pruned.packages).filter(([path, entry]) => path && !entry.link)
  const unlocked = entries
    .map(([path, entry]) => `${packageName(path)}@${entry.version} ${entry.integrity}`)
    .filter((key) => !locked.has(key))
  if (unlocked.length) {
    throw new Error(
      `the build's lockfile has packages the project's does not: ${unlocked.join(', ')}`
    )
  }
  return { kept: entries.length, total: Object.keys(project.packages).length - 1 }
}

export default async function buildFinished(bundler: Bundler) {
  const root = bundler.cwdPath
  const outDir = await outputDirectory(root)
  const logger = bundler.ui.logger

  const target = await copyReferenceBundle(root, outDir)
  logger.info('copied the API reference bundle', { suffix: relative(root, target) })

  const { kept, total } = await pruneDevDependencies(root, outDir)
  logger.info(
    `production package files: ${kept} of the ${total} locked packages (devDependencies removed)`,
    { suffix: relative(root, join(outDir, 'package-lock.json')) }
  )
}
