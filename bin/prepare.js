/*
| Prepares a fresh clone, with nothing but Node 24 and the npm packages:
|   node bin/prepare.js         (npm run dev)  creates .env with fresh random secrets when missing,
|                                              migrates and seeds the SQLite database (prints the
|                                              first admin's login when it is created)
|   node bin/prepare.js --test  (npm test)     only checks that Node is recent enough
|                                              (bin/node_version.js)
*/
import './node_version.js'
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { execFileSync } from 'node:child_process'

if (process.argv.includes('--test')) process.exit(0)

mkdirSync('tmp', { recursive: true })
if (!existsSync('.env')) {
  const secret = (bytes) => randomBytes(bytes).toString('base64url')
  const env = readFileSync('.env.example', 'utf8')
    .replace(/^APP_KEY=.*$/m, `APP_KEY=${secret(32)}`)
    .replace(/^JWT_SECRET=.*$/m, `JWT_SECRET=${secret(48)}`)
  writeFileSync('.env', env, { mode: 0o600 })
  console.log('Created .env with fresh random APP_KEY and JWT_SECRET')
}

const ace = (...args) => execFileSync(process.execPath, ['ace', ...args], { stdio: 'inherit' })
ace('migration:run', '--force')
ace('db:seed')
