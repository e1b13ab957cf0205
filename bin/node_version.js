/*
| The Node version check, said once: imported first (a static import, before anything heavy) by
| bin/prepare.js, ace.js, bin/console.ts and bin/server.ts. On an older Node it prints one line
| naming the required and found versions and exits 1: without it, an older Node dies on the first
| native module built for Node 24 (better-sqlite3's segfault, no message) or on TypeScript. The
| required major is package.json's `engines.node`. Plain JavaScript, so Node 20 can run it; copied
| into the build by adonisrc.ts (metaFiles), where it reads the build's package.json.
*/
import { readFileSync } from 'node:fs'

const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
const required = Number(/\d+/.exec(engines.node)[0])
const found = process.versions.node
if (Number(found.split('.')[0]) < required) {
  console.error(
    `Node ${required} or newer is required (package.json engines.node "${engines.node}"), found Node ${found}: ` +
      `put Node ${required} first on PATH (in a clone: ". bin/node24.sh").`
  )
  process.exit(1)
}
