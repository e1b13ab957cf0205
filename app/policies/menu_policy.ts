import { BasePolicy } from '@adonisjs/bouncer'
import { type Principal, REFUSED, requireHeld, refuse } from '#policies/grant_rule'

/** A node with everything below it (a status, type or code change reaches the whole subtree). */
export type MenuTarget = { id: number; subtree: readonly number[] }

/** The fields of a menu write that change what anyone holds. */
export type MenuChange = { permission?: string | null; parentId?: number | null }

/**
 * The menu tree, for a non-super caller (an enabled super admin passes `before`). A non-super
 * caller only works inside what they hold: a node is edited or deleted only when they hold it and
 * everything below it (a disabled node is held by nobody, so only a super admin re-enables it),
 * a permission code is only set to one they hold, a node is only created or moved under a parent
 * they hold. A move never writes role_menus (the menu service refuses a move that would need it).
 */
export default class MenuPolicy extends BasePolicy {
  before(principal: Principal) {
    if (principal.access.isSuperAdmin) return true
  }

  create(principal: Principal, change: MenuChange) {
    return this.changeAllowed(principal, change)
  }

  update(principal: Principal, node: MenuTarget, change: MenuChange) {
    const target = requireHeld(principal, node.subtree, REFUSED.target)
    return target === true ? this.changeAllowed(principal, change) : target
  }

  delete(principal: Principal, node: MenuTarget) {
    return requireHeld(principal, node.subtree, REFUSED.target)
  }

  private changeAllowed(principal: Principal, change: MenuChange) {
    if (change.permission && !principal.access.can(change.permission)) return refuse(REFUSED.code)
    if (
      change.parentId !== undefined &&
      change.parentId !== null &&
      !principal.access.menuIds.has(change.parentId)
    ) {
      return requireHeld(principal, [change.parentId], REFUSED.grant)
    }
    return true
  }
}
