import { defineConfig, drivers } from '@adonisjs/core/hash'
import env from '#start/env'

/**
 * Test runs may lower the memory (TEST_ARGON2_MEMORY_KIB in .env.test): hundreds of password
 * checks per test (the ceiling's) cost minutes at 64 MiB on a loaded 2-core machine, and what
 * those tests check is how many hashes run, not what one costs. Read only when NODE_ENV=test.
 */
const testMemory = env.get('NODE_ENV') === 'test' ? env.get('TEST_ARGON2_MEMORY_KIB') : undefined

/**
 * argon2id with the OWASP-recommended floor (19 MiB, 2 passes) raised to 64 MiB / 3 passes.
 */
const hashConfig = defineConfig({
  default: 'argon',
  list: {
    argon: drivers.argon2({
      variant: 'id',
      version: 0x13,
      iterations: 3,
      memory: testMemory ?? 65536,
      parallelism: 1,
      saltSize: 16,
      hashLength: 32,
    }),
    /**
     * Only for passwords the server generates (>= 96 random bits: the user import): guessing one
     * is out of reach whatever the hash costs, so a light argon2id keeps 10,000 rows in seconds.
     * The owner must change it at the first sign-in (then hashed with `argon`); login verifies
     * either digest (argon2 reads the cost from the digest) and re-hashes old ones.
     */
    generated: drivers.argon2({
      variant: 'id',
      version: 0x13,
      iterations: 2,
      memory: 1024,
      parallelism: 1,
      saltSize: 16,
      hashLength: 32,
    }),
  },
})

export default hashConfig

declare module '@adonisjs/core/types' {
  export interface HashersList extends InferHashers<typeof hashConfig> {}
}
