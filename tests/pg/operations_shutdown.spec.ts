import { test } from '@japa/runner'
import env from '#start/env'
import type pg from 'pg'
import { ADMIN_ACCOUNT, ADMIN_PASSWORD } from '#tests/helpers/auth'
import { freshPgDatabase } from '#tests/helpers/pg_database'
import {
  startAppProcess,
  type AppProcess,
  earnCredential,
  fetchJson,
} from '#tests/helpers/app_process'

const DATABASE = `${env.get('PG_DB_NAME', 'adonis_rbac_test')}_shutdown`

const exitOf = (instance: AppProcess) =>
  new Promise<number | null>((resolve) => {
    if (instance.child.exitCode !== null) return resolve(instance.child.exitCode)
    instance.child.once('exit', (code) => resolve(code))
  })

/**
 * SIGTERM on a real app process (bin/server.ts): readiness fails at once, requests already
 * accepted are all answered, new connections are refused, the pools close and the exit code is 0.
 */
test.group('Operations: graceful shutdown', (group) => {
  let db: pg.Client

  group.setup(async () => {
    db = await freshPgDatabase(DATABASE)
    return () => db.end()
  })

  const credential = (instance: AppProcess) => earnCredential(db, instance.url)

  test('SIGTERM with 50 logins in flight: all 50 answered 200, new connections refused, exit 0', async ({
    assert,
  }) => {
    const instance = await startAppProcess({
      DB_CONNECTION: 'pg',
      PG_DB_NAME: DATABASE,
      LIMITER_STORE: 'database',
      LIMIT_CAPTCHA_PER_MINUTE: '1000',
      LIMIT_LOGIN_FAILURES_PER_IP: '1000',
      LIMIT_LOGIN_FAILURES_PER_ACCOUNT: '1000',
      SHUTDOWN_DELAY_MS: '0',
      SHUTDOWN_TIMEOUT_MS: '60000',
      LOG_LEVEL: 'info',
    })
    try {
      const credentials = []
      for (let i = 0; i < 50; i++) credentials.push(await credential(instance))
      // 50 connections opened and accepted first (fetch keeps them alive and reuses them): on a
      // busy machine a connection still being opened when the signal comes is a new connection
      // to a closing server (reset, as the drain intends), not a login in flight.
      const opened = Array.from({ length: 50 }, () =>
        fetch(`${instance.url}/api/health/live`).then((response) => response.arrayBuffer())
      )
      await Promise.all(opened)

      // Logins of one account run one at a time (argon2id each): 50 of them take seconds.
      let signalledAt = 0
      let firstAnswered = () => {}
      const first = new Promise<void>((resolve) => (firstAnswered = resolve))
      const answers = credentials.map(async (captchaToken) => {
        const answer = await fetchJson(`${instance.url}/api/auth/login`, {
          method: 'POST',
          body: JSON.stringify({ account: ADMIN_ACCOUNT, password: ADMIN_PASSWORD, captchaToken }),
        }).catch((error: Error) => ({ status: 0, body: String(error.cause ?? error) }))
        firstAnswered()
        return { ...answer, at: performance.now() }
      })
      // The signal waits for the first answer (one argon2 hash, the event loop idle meanwhile):
      // by then every connection has been accepted. A fixed 300 ms was too short on a slow
      // machine, and a connection still in the listen backlog is a new connection to a closing
      // server: reset, as the drain intends.
      await first
      const exited = exitOf(instance)
      signalledAt = performance.now()
      instance.child.kill('SIGTERM')

      await new Promise((resolve) => setTimeout(resolve, 100))
      const refused = await fetch(`${instance.url}/api/health/live`).then(
        () => false,
        () => true
      )
      const results = await Promise.all(answers)
      assert.deepEqual(
        results.map((result) => result.status),
        Array(50).fill(200),
        JSON.stringify(results.filter((result) => result.status !== 200).slice(0, 3))
      )
      // Most were still queued when the signal came: the drain, not luck, answered them.
      const afterSignal = results.filter((result) => result.at > signalledAt).length
      assert.isAtLeast(afterSignal, 25)
      assert.isTrue(refused, 'a new connection after SIGTERM was accepted')
      assert.equal(await exited, 0, instance.output())
      assert.include(instance.output(), 'shutdown complete')
    } finally {
      await instance.stop()
    }
  }).timeout(180_000)

  test('during SHUTDOWN_DELAY_MS ready answers 503 and live 200; then the process exits 0', async ({
    assert,
  }) => {
    const instance = await startAppProcess({
      DB_CONNECTION: 'pg',
      PG_DB_NAME: DATABASE,
      SHUTDOWN_DELAY_MS: '1500',
    })
    try {
      assert.equal((await fetchJson(`${instance.url}/api/health/ready`)).status, 200)
      const exited = exitOf(instance)
      instance.child.kill('SIGTERM')
      await new Promise((resolve) => setTimeout(resolve, 200))
      const ready = await fetchJson(`${instance.url}/api/health/ready`, {
        headers: { 'x-monitoring-secret': 'test-monitoring-secret' },
      })
      assert.equal(ready.status, 503)
      assert.equal(ready.body.errors[0].code, 'E_UNAVAILABLE')
      const drain = ready.body.report.checks.find((check: any) => check.name === 'Shutdown')
      assert.equal(drain.status, 'error')
      assert.equal((await fetchJson(`${instance.url}/api/health/live`)).status, 200)
      assert.equal(await exited, 0, instance.output())
    } finally {
      await instance.stop()
    }
  }).timeout(120_000)
})
