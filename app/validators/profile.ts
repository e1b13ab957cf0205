import vine from '@vinejs/vine'
import { PASSWORD_MAX, email, nickname } from '#resources/users'

/**
 * PUT /api/auth/profile: what an administrator may change about themselves. The account name,
 * status and roles are not here (VineJS drops every other key): only an administrator with the
 * permission changes those (PUT /api/admin/users/:id).
 */
export const updateProfileValidator = vine.create({
  nickname: nickname().minLength(1).optional(),
  email: email(),
  /** Required when `email` changes (app/services/profile_service.ts). */
  currentPassword: vine.string().minLength(1).maxLength(PASSWORD_MAX).optional(),
})
