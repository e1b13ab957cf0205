import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import ProfileService from '#services/profile_service'
import { notFound } from '#exceptions/api_exception'
import { contract } from '#openapi/contract'

/**
 * GET /api/avatars/:userId: an administrator's avatar, for any signed-in administrator (the
 * user list shows them) and nobody else: administrators' faces are not public.
 */
@inject()
export default class AvatarsController {
  static contract = contract({
    show: {
      summary: "An administrator's avatar (256 x 256 WebP)",
      description:
        'Any signed-in administrator; 404 when the account has none. Strong ETag, ' +
        '`Cache-Control: private, no-cache`: clients revalidate and get 304 while it is unchanged. ' +
        '`avatarUrl` adds `?v=<etag>`, so a changed avatar also has a new URL.',
      raw: {
        schema: { type: 'string', contentMediaType: 'image/webp' },
        contentType: 'image/webp',
      },
      conditional: true,
    },
  })

  constructor(protected profiles: ProfileService) {}

  async show({ params, response }: HttpContext) {
    const avatar = await this.profiles.avatarOf(params.userId)
    if (!avatar) throw notFound('noAvatar')
    response.header('ETag', `"${avatar.etag}"`)
    response.header('Cache-Control', 'private, no-cache')
    if (response.fresh()) return response.notModified()
    response.header('Content-Type', 'image/webp')
    return response.send(avatar.data)
  }
}
