import { BasePolicy } from '@adonisjs/bouncer'
import {
  type Principal,
  REFUSED,
  holdsRole,
  requireHeld,
  requireScopeHeld,
  refuse,
} from '#policies/grant_rule'
import type { RoleGrant } from '#policies/holdings'

/**
 * Roles, for a non-super caller (an enabled super admin passes `before`). The role service keeps
 * the data invariants of system roles (never deleted, disabled, re-coded or given menus).
 */
export default class RolePolicy extends BasePolicy {
  before(principal: Principal) {
    if (principal.access.isSuperAdmin) return true
  }

  /**
   * A new role: every node it gets is granted by the caller, and its data scope shows nothing
   * the caller does not see (`all` only with `all`; custom departments seen; the relative scopes
   * are measured when the role is given to someone).
   */
  create(principal: Principal, granted: readonly number[], shows: 'all' | Iterable<number>) {
    const menus = requireHeld(principal, granted, REFUSED.grant)
    if (menus !== true) return menus
    return requireScopeHeld(principal, shows)
  }

  /**
   * Rename, re-sort, enable or disable: the role holds nothing the caller lacks (so enabling it
   * grants nothing the caller lacks), and a caller never changes the status of a role they hold.
   */
  update(
    principal: Principal,
    role: RoleGrant,
    change: { status: boolean; shows?: 'all' | Iterable<number> }
  ) {
    const target = this.manage(principal, role)
    if (target !== true) return target
    if (change.status && holdsRole(principal, role.id)) return refuse(REFUSED.ownRole)
    // A new data scope, as the role's current holders would get it.
    return change.shows === undefined ? true : requireScopeHeld(principal, change.shows)
  }

  delete(principal: Principal, role: RoleGrant) {
    return this.manage(principal, role)
  }

  /** Replacing the menu set: the role holds nothing the caller lacks, before and after. */
  assignMenus(principal: Principal, role: RoleGrant, next: readonly number[]) {
    const target = this.manage(principal, role)
    if (target !== true) return target
    return requireHeld(principal, next, REFUSED.grant)
  }

  private manage(principal: Principal, role: RoleGrant) {
    if (role.isSuperAdmin || role.isSystem) return refuse(REFUSED.superAdmin)
    const menus = requireHeld(principal, role.menuIds, REFUSED.target)
    if (menus !== true) return menus
    return requireScopeHeld(principal, role.shows, REFUSED.target)
  }
}
