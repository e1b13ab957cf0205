import { assert } from '@japa/assert'
import { ApiClient, apiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import type { Config } from '@japa/runner/types'
import type { Runner } from '@japa/runner/core'
import { pluginAdonisJS } from '@japa/plugin-adonisjs'
import { dbAssertions } from '@adonisjs/lucid/plugins/db'
import testUtils from '@adonisjs/core/services/test_utils'
import { authApiClient } from '@adonisjs/auth/plugins/api_client'
import env from '#start/env'
import { prepareTestDatabase } from '#tests/helpers/database'
import { ensurePgDatabase } from '#tests/helpers/pg_database'
import { createApiServer } from '#start/http_server'
import { createLimiters } from '#auth/limits'
import { loginLimitSamples } from '#auth/login_limiter'
import { captchaLimitSamples } from '#captcha/captcha_limits'
import { mailLimitSamples } from '#services/email/email_service'
import { flushLimiterRedis } from '#tests/helpers/redis'
import { contractChecks, contractTeardown } from '#tests/helpers/openapi_contract'
import { checkCompiledJson, compiledJsonTeardown } from '#tests/helpers/compiled_json_check'
import { slowestTests } from '#tests/helpers/slowest_tests'

export const plugins: Config['plugins'] = [
  assert(),
  pluginAdonisJS(app),
  apiClient(),
  authApiClient(app),
  dbAssertions(app),
  slowestTests(),
]

/**
 * The suites (adonisrc.ts; README, "Tests"):
 *   unit        pure rules, no database, no HTTP
 *   functional  real HTTP through the app on the configured database (SQLite by default)
 *   stress      the 10,000-request fuzz and the 1,000 races (CI; `npm run test:stress`)
 *   pg          needs a running PostgreSQL (and Redis): database cut through a proxy, two
 *               instances, the Redis limiter store, graceful shutdown
 *   replica     needs a streaming replica on TEST_PG_REPLICA_PORT (.ci/pg-replica.sh)
 *   browser     the built console (console/dist) in Debian's Chromium through playwright-core
 *   deploy      the production build behind Debian's nginx, through HTTP only: run by
 *               .ci/deploy-nginx.sh, which sets the deployment up (docs/deploy.md)
 */
const SUITES = ['unit', 'functional', 'stress', 'pg', 'replica', 'browser', 'deploy']
const ran: string[] = []

/** With DB_CONNECTION=pg the test database (PG_DB_NAME) is created when missing. */
async function ensurePostgresDatabase() {
  if (env.get('DB_CONNECTION', 'sqlite') !== 'pg') return
  await ensurePgDatabase(env.get('PG_DB_NAME', 'adonis_rbac_test'))
}

/**
 * The limiter manager caches each limiter with the database client current when it was created,
 * so they are all created up front, before any test, whatever order the files run in:
 * - PostgreSQL: on the pool. One first created inside a test's global transaction would keep
 *   that transaction after its rollback (every later limited request then fails).
 * - SQLite: inside a transaction. Its store takes the raw connection from the client it was
 *   given; a transaction's client always hands out its own connection, the single one every
 *   test's global transaction also runs on. One created on the pool would wait, inside a later
 *   test's global transaction, for the connection that transaction holds.
 */
const limiterSamples = () => [
  ...loginLimitSamples(),
  ...captchaLimitSamples(),
  ...mailLimitSamples(),
]
async function createLimitersUpFront() {
  if (env.get('DB_CONNECTION', 'sqlite') === 'pg') return createLimiters(limiterSamples())
  const rollback = await testUtils.db().wrapInGlobalTransaction()
  try {
    createLimiters(limiterSamples())
  } finally {
    await rollback()
  }
}

/** Nothing is skipped silently: say which suites ran, on which database, and which did not. */
function reportSuites() {
  const skipped = SUITES.filter((name) => !ran.includes(name))
  console.log(
    `\nSuites run: ${ran.join(', ')} (database: ${env.get('DB_CONNECTION', 'sqlite')}).` +
      (skipped.length ? ` Not run: ${skipped.join(', ')} (README, "Tests").` : '')
  )
}

/**
 * With LIMITER_STORE=redis the counters live in Redis, outside every database reset, and the
 * limiter only clears stores it has used in this process: a run starts from an empty REDIS_DB, so
 * blocks left by an earlier run (on this machine, or a CI run before) cannot leak into this one.
 */
async function flushRedisLimiterStore() {
  if (env.get('LIMITER_STORE', 'database') === 'redis') await flushLimiterRedis()
}

/**
 * Each failure's message and its line in tests/, repeated as the run's very last lines: a CI log
 * is often read from its tail, where the reporter's long stacks push the message out.
 */
function failuresLast(runner: Runner) {
  process.once('exit', () => {
    const lines: string[] = []
    for (const suite of runner.getSummary().failureTree) {
      const nodes = suite.children.flatMap((node) =>
        node.type === 'group' ? [node, ...node.children] : [node]
      )
      for (const node of [suite, ...nodes]) {
        for (const { phase, error } of node.errors) {
          const message = String((error as Error)?.message ?? error)
            .split('\n')[0]
            .slice(0, 300)
          const at = String((error as Error)?.stack ?? '').match(/tests\/[^\s)]+:\d+/)?.[0] ?? ''
          lines.push(`  ✖ ${'title' in node ? node.title : node.name} [${phase}] ${message} ${at}`)
        }
      }
    }
    if (lines.length) console.log(`\nFailures, in short:\n${lines.join('\n')}`)
  })
}

export const runnerHooks: Required<Pick<Config, 'setup' | 'teardown'>> = {
  setup: [
    ensurePostgresDatabase,
    () => prepareTestDatabase(),
    createLimitersUpFront,
    flushRedisLimiterStore,
  ],
  teardown: [reportSuites, failuresLast],
}

/** Every answer the functional suite receives must match the OpenAPI document (GET /api/openapi.json). */
ApiClient.teardown(contractTeardown)
/** ...and, when compiled from the contract, have the bytes the safe stringify writes. */
ApiClient.teardown(compiledJsonTeardown)

export const configureSuite: Config['configureSuite'] = (suite) => {
  ran.push(suite.name)
  if (suite.name === 'functional') {
    suite.setup(() => {
      contractChecks.enabled = true
      checkCompiledJson(true)
      return () => {
        contractChecks.enabled = false
        checkCompiledJson(false)
      }
    })
  }
  // The deploy suite talks to a deployment of its own, never to an app in this process.
  if (suite.name !== 'unit' && suite.name !== 'deploy') {
    return suite.setup(() => testUtils.httpServer().start(createApiServer))
  }
}
