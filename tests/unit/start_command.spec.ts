import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { test } from '@japa/runner'
import limiter from '@adonisjs/limiter/services/main'
import appEnv from '#start/env'
import { startCommand } from '../../bench/processes.js'

/*
| The production server's memory settings live in package.json's start script (docs/performance.md,
| "Memory"); the benchmarks read them from there, and systemd cannot: the unit must say the same.
*/
test.group('How the production server is started', () => {
  test('the systemd unit runs the server as `npm start` does', ({ assert }) => {
    const start = startCommand('.')
    const unit = readFileSync('deploy/adonis-rbac.service', 'utf8')
    const execStart = /^ExecStart=\S+ (.*)$/m.exec(unit)![1].split(' ')
    assert.deepEqual(execStart, start.args)
    const environment = [...unit.matchAll(/^Environment=(\w+)=(.*)$/gm)].map((line) => [
      line[1],
      line[2],
    ])
    for (const pair of Object.entries(start.env)) assert.deepInclude(environment, pair)
    assert.include(start.args, 'bin/server.js')
  })

  test('the container image runs the server as `npm start` does, node as PID 1', ({ assert }) => {
    const start = startCommand('.')
    const file = readFileSync('Containerfile', 'utf8').replace(/\\\n/g, ' ')
    // Exec form (a JSON array): no shell between the runtime's SIGTERM and node.
    const cmd = /^CMD (\[.*\])$/m.exec(file)
    assert.isNotNull(cmd)
    assert.deepEqual(JSON.parse(cmd![1]), ['node', ...start.args])
    const runtime = file.slice(file.lastIndexOf('\nFROM '))
    const env = /^ENV (.*)$/m.exec(runtime)![1].trim().split(/\s+/)
    for (const [name, value] of Object.entries(start.env)) assert.include(env, `${name}=${value}`)
    assert.match(runtime, /^USER (?!root|0\b)\S+$/m)
  })

  test("the start script's node flags are ones this Node accepts", ({ assert }) => {
    const { env, args } = startCommand('.')
    const flags = args.filter((arg) => arg.startsWith('--'))
    assert.isAbove(flags.length, 0)
    const run = (given: string[]) =>
      execFileSync(process.execPath, [...given, '-e', '0'], {
        env: { ...process.env, ...env },
        stdio: 'pipe',
      })
    assert.doesNotThrow(() => run(flags))
    // Node refuses a flag it does not know (exit 9): the check above can fail.
    assert.throws(() => run([...flags, '--max-semi-space-sizes=16']))
  })

  test('the Redis limiter store is resolved (and ioredis loaded) only with LIMITER_STORE=redis', ({
    assert,
  }) => {
    // It loads ioredis: with config/redis.ts's former import, 16 MB of private memory after boot.
    const stores = Object.keys(limiter.config.stores)
    assert.equal(stores.includes('redis'), appEnv.get('LIMITER_STORE', 'database') === 'redis')
    assert.includeMembers(stores, ['database', 'memory'])
  })
})
