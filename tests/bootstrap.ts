import { assert } from '@japa/assert'
import { apiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import type { Config } from '@japa/runner/types'
import { pluginAdonisJS } from '@japa/plugin-adonisjs'
import testUtils from '@adonisjs/core/services/test_utils'
import { authApiClient } from '@adonisjs/auth/plugins/api_client'
import env from '#start/env'
import { prepareTestDatabase } from '#tests/helpers/database'
import { ensurePgDatabase } from '#tests/helpers/pg_database'
import { createApiServer } from '#start/http_server'

export const plugins: Config['plugins'] = [
  assert(),
  pluginAdonisJS(app),
  apiClient(),
  authApiClient(app),
]

/**
 * With DB_CONNECTION=pg the test database (PG_DB_NAME) is created when missing.
 */
async function ensurePostgresDatabase() {
  if (env.get('DB_CONNECTION', 'sqlite') !== 'pg') return
  await ensurePgDatabase(env.get('PG_DB_NAME', 'adonis_rbac_test'))
}

export const runnerHooks: Required<Pick<Config, 'setup' | 'teardown'>> = {
  setup: [ensurePostgresDatabase, () => prepareTestDatabase()],
  teardown: [],
}

export const configureSuite: Config['configureSuite'] = (suite) => {
  if (suite.name === 'functional') {
    return suite.setup(() => testUtils.httpServer().start(createApiServer))
  }
}
