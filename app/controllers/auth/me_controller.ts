import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import CurrentUserTransformer, { meSchema } from '#transformers/auth/current_user_transformer'
import { contract } from '#openapi/contract'
import { pendingRequirement } from '#auth/account_requirements'
import MenuService from '#services/admin/menu_service'
import { MenuTreeTransformer, menuTreeSchema } from '#transformers/admin/menu_transformer'

@inject()
export default class MeController {
  static contract = contract({
    show: {
      summary: 'The caller: profile, pending requirement, roles, sidebar tree, permission codes',
      data: meSchema,
    },
    grantable: {
      summary: 'The menus the caller may grant: every node they hold, buttons included, as a tree',
      description:
        'For the role menu editor. A super admin gets the whole tree; anyone else exactly the ' +
        'nodes they hold (the grant rule refuses any other), so no menu list permission is needed.',
      list: menuTreeSchema,
    },
  })

  constructor(protected menus: MenuService) {}

  /**
   * The current account state, as the guard re-read it for this request: profile, what it must
   * do before anything else (app/auth/account_requirements.ts, the gate's own rule), every
   * assigned role with its status, the sidebar tree (buttons excluded) and the permission codes.
   * No query beyond the guard's (1 when the access version did not move).
   */
  async show({ auth, response }: HttpContext) {
    const guard = auth.use('jwt')
    const account = guard.account!
    const snapshot = guard.getAccessOrFail()
    // The bytes are reused while everything in them is unchanged: the account row (the state is
    // replaced when any column moves), the snapshot (one per access version) and the pending
    // requirement, which the configuration and the clock also move (password expiry; it is
    // E_PASSWORD_CHANGE_REQUIRED exactly when passwordChangeRequired is true, so it covers that
    // field too). Else built from the model and the snapshot's fragment.
    const pending = pendingRequirement(account, snapshot)
    let body = account.meBody
    if (body?.snapshot !== snapshot || body.pending !== pending) {
      const user = JSON.stringify(new CurrentUserTransformer(guard.getUserOrFail()).toObject())
      // The access part is serialized once per access version (AccessSnapshot.toJsonFragment).
      const json = `{"data":{"user":${user},"pendingRequirement":${JSON.stringify(pending)},${snapshot.toJsonFragment()}}}`
      body = { snapshot, pending, bytes: Buffer.from(json) }
      account.meBody = body
    }
    response.header('Cache-Control', 'no-store')
    response.header('Content-Type', 'application/json; charset=utf-8')
    return response.send(body.bytes)
  }

  /**
   * What a role editor may put in a role. The grant rule lets a caller grant only what they
   * hold, so the tree shows exactly that; it reveals nothing beyond the caller's own /me codes.
   */
  async grantable({ auth, serialize }: HttpContext) {
    const access = auth.use('jwt').getAccessOrFail()
    const tree = await this.menus.tree(access.isSuperAdmin ? undefined : access.menuIds)
    return serialize(MenuTreeTransformer.transform(tree))
  }
}
