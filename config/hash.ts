import { defineConfig, drivers } from '@adonisjs/core/hash'

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
      memory: 65536,
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
