import { indexEntities } from '@adonisjs/core'
import { defineConfig } from '@adonisjs/core/app'
import { indexPolicies } from '@adonisjs/bouncer'

export default defineConfig({
  experimental: {},

  /*
  | Application commands are scanned from ./commands; these come from packages.
  */
  commands: [() => import('@adonisjs/core/commands'), () => import('@adonisjs/lucid/commands')],

  providers: [
    () => import('@adonisjs/core/providers/app_provider'),
    () => import('@adonisjs/core/providers/hash_provider'),
    {
      file: () => import('@adonisjs/core/providers/repl_provider'),
      environment: ['repl', 'test'],
    },
    () => import('@adonisjs/core/providers/vinejs_provider'),
    () => import('@adonisjs/lucid/database_provider'),
    () => import('@adonisjs/cors/cors_provider'),
    () => import('@adonisjs/auth/auth_provider'),
    () => import('@adonisjs/redis/redis_provider'),
    () => import('@adonisjs/limiter/limiter_provider'),
    () => import('@adonisjs/bouncer/bouncer_provider'),
    () => import('@adonisjs/i18n/i18n_provider'),
    () => import('#providers/mail_provider'),
    () => import('#providers/api_provider'),
  ],

  preloads: [
    () => import('#start/routes'),
    () => import('#start/kernel'),
    () => import('#start/events'),
  ],

  tests: {
    suites: [
      {
        files: ['tests/unit/**/*.spec.{ts,js}'],
        name: 'unit',
        timeout: 10000,
      },
      {
        files: ['tests/functional/**/*.spec.{ts,js}'],
        name: 'functional',
        // No single test over 30 s (README, "Tests"); the run lists its 10 slowest.
        timeout: 30000,
      },
      {
        files: ['tests/stress/**/*.spec.{ts,js}'],
        name: 'stress',
        timeout: 300000,
      },
      {
        files: ['tests/pg/**/*.spec.{ts,js}'],
        name: 'pg',
        timeout: 120000,
      },
      {
        files: ['tests/replica/**/*.spec.{ts,js}'],
        name: 'replica',
        timeout: 120000,
      },
      {
        files: ['tests/browser/**/*.spec.{ts,js}'],
        name: 'browser',
        timeout: 180000,
      },
      {
        files: ['tests/deploy/**/*.spec.{ts,js}'],
        name: 'deploy',
        timeout: 120000,
      },
    ],
    forceExit: false,
  },

  metaFiles: [
    { pattern: 'resources/lang/**/*.json', reloadServer: true },
    // The Node version check of bin/server.js and bin/console.js (plain JavaScript, not compiled).
    { pattern: 'bin/node_version.js', reloadServer: false },
  ],

  hooks: {
    init: [
      // app/controllers/**/*_controller.ts (admin/crud.ts is the CRUD controllers' base class).
      indexEntities({
        controllers: { glob: ['**/*_controller.ts'] },
        transformers: { enabled: true },
      }),
      // app/policies/*_policy.ts -> #generated/policies (grant_rule.ts and holdings.ts are helpers).
      indexPolicies({ glob: ['**/*_policy.ts'] }),
    ],
    // The API reference page's script into the build, devDependencies out of its package files.
    buildFinished: [() => import('./bin/build_finished.js')],
  },
})
