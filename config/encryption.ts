import env from '#start/env'
import { defineConfig, drivers } from '@adonisjs/core/encryption'

/** AES-256-GCM keyed by APP_KEY (signed URLs, encrypted values); the JWT has its own secret. */
const encryptionConfig = defineConfig({
  default: 'gcm',
  list: {
    gcm: drivers.aes256gcm({
      keys: [env.get('APP_KEY').release()],
      id: 'gcm',
    }),
  },
})

export default encryptionConfig

declare module '@adonisjs/core/types' {
  export interface EncryptorsList extends InferEncryptors<typeof encryptionConfig> {}
}
