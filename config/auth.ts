import { defineConfig } from '@adonisjs/auth'
import type { InferAuthenticators } from '@adonisjs/auth/types'
import type { HttpContext } from '@adonisjs/core/http'
import { JwtGuard } from '#auth/guards/jwt_guard'

/**
 * One guard: the administrator JWT. Public endpoints use no guard at all.
 */
const authConfig = defineConfig({
  default: 'jwt',
  guards: {
    jwt: (ctx: HttpContext) => new JwtGuard(ctx),
  },
})

export default authConfig

declare module '@adonisjs/auth/types' {
  export interface Authenticators extends InferAuthenticators<typeof authConfig> {}
}
