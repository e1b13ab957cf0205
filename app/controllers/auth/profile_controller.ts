import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import ProfileService from '#services/profile_service'
import CurrentUserTransformer, {
  currentUserSchema,
} from '#transformers/auth/current_user_transformer'
import { updateProfileValidator } from '#validators/profile'
import { readUpload } from '#core/uploads'
import { AVATAR_MAX_BYTES } from '#services/avatar_image'
import { contract } from '#openapi/contract'

/** /api/auth/profile and /api/auth/avatar: the signed-in administrator's own profile. */
@inject()
export default class ProfileController {
  static contract = contract({
    show: { summary: 'The own profile', data: currentUserSchema },
    update: {
      summary: 'Change the own nickname or email (audited)',
      description:
        'A new `email` (or none) needs `currentPassword` (422 on `currentPassword` when missing ' +
        'or wrong, nothing changed; wrong ones are limited per session, 429). The new address ' +
        'gets a 6-digit code; the replaced one, when verified, a single-use undo link (POST ' +
        '/api/auth/email/undo).',
      body: updateProfileValidator,
      data: currentUserSchema,
      errors: [429],
    },
    avatar: {
      summary: 'Upload the own avatar (PNG, JPEG, GIF or WebP, at most 2 MB and 24 megapixels)',
      description:
        'multipart/form-data, the image in the part `avatar`. Decoded, stripped of its metadata and ' +
        're-encoded as a 256 x 256 WebP (cropped to cover); anything else (SVG, another file ' +
        'type, a corrupt or oversized image, an empty file) is refused with 422 and nothing is ' +
        'stored. Served at `avatarUrl` (GET /api/avatars/{userId}).',
      upload: { field: 'avatar' },
      data: currentUserSchema,
      errors: [413, 422],
    },
  })

  constructor(protected profiles: ProfileService) {}

  async show({ auth, response, serialize }: HttpContext) {
    response.header('Cache-Control', 'no-store')
    return serialize(CurrentUserTransformer.transform(auth.use('jwt').getUserOrFail()))
  }

  async update(ctx: HttpContext) {
    const data = await ctx.request.validateUsing(updateProfileValidator)
    const user = await this.profiles.update(ctx, ctx.auth.use('jwt').getUserOrFail(), data)
    return ctx.serialize(CurrentUserTransformer.transform(user))
  }

  async avatar(ctx: HttpContext) {
    const upload = await readUpload(ctx.request, 'avatar', AVATAR_MAX_BYTES)
    const user = await this.profiles.setAvatar(ctx, ctx.auth.use('jwt').getUserOrFail(), upload)
    return ctx.serialize(CurrentUserTransformer.transform(user))
  }
}
