import { BasePolicy } from '@adonisjs/bouncer'
import {
  type Principal,
  REFUSED,
  notHeld,
  requireCodesHeld,
  requireHeld,
  requireScopeHeld,
  refuse,
} from '#policies/grant_rule'
import { seesDept } from '#services/admin/data_scope'
import type { AccountHolding, RoleGrant } from '#policies/holdings'

/** Where an account goes (its department), and the departments its roles then show it. */
export type Placement = { deptId: number | null; shows: 'all' | Iterable<number> }

/**
 * Administrator accounts, for a non-super caller (an enabled super admin passes `before`). The
 * user service keeps the data invariants (the last enabled super admin, nobody disables, deletes
 * or re-roles their own account).
 */
export default class UserPolicy extends BasePolicy {
  before(principal: Principal) {
    if (principal.access.isSuperAdmin) return true
  }

  /**
   * A new account: every role it gets grants nothing the caller lacks, it goes to a department
   * the caller sees, and what its roles show it there is seen by the caller.
   */
  create(principal: Principal, roles: readonly RoleGrant[], placed: Placement) {
    const granted = this.grantRoles(principal, roles)
    if (granted !== true) return granted
    return this.place(principal, placed)
  }

  /**
   * The account holds nothing the caller lacks: to edit, disable or re-enable it, delete it, clear
   * its login blocks, take it over (password or second-factor reset: granting oneself what it
   * holds), end one of its sessions or revoke one of its API tokens.
   */
  delete = this.manage
  unlock = this.manage
  resetPassword = this.manage
  resetTwoFactor = this.manage
  forceLogout = this.manage
  revokeApiToken = this.manage

  /** Editing: the account is managed by the caller; a move goes where the caller sees. */
  update(principal: Principal, account: AccountHolding, moved?: Placement) {
    const target = this.manage(principal, account)
    if (target !== true || !moved) return target
    return this.place(principal, moved)
  }

  /** An own API token: every code it carries is held by the caller (tokens never hold more). */
  createApiToken(principal: Principal, codes: readonly string[]) {
    return requireCodesHeld(principal, codes, REFUSED.tokenCodes)
  }

  /** Replacing the role set: the account is managed by the caller, and what it gets is held. */
  assignRoles(
    principal: Principal,
    account: AccountHolding,
    added: readonly RoleGrant[],
    shows: 'all' | Iterable<number>
  ) {
    const target = this.manage(principal, account)
    if (target !== true) return target
    const granted = this.grantRoles(principal, added)
    if (granted !== true) return granted
    return requireScopeHeld(principal, shows)
  }

  /** Holds nothing the caller lacks: menus, and departments its data scope shows it. */
  private manage(principal: Principal, account: AccountHolding) {
    if (account.isSuperAdmin) return refuse(REFUSED.superAdmin)
    const menus = requireHeld(principal, account.menuIds, REFUSED.target)
    if (menus !== true) return menus
    return requireScopeHeld(principal, account.shows, REFUSED.target)
  }

  /** An account placed in `deptId`, where its roles would show it `shows`. */
  private place(principal: Principal, { deptId, shows }: Placement) {
    if (!seesDept(principal.access.scope, deptId)) return refuse(REFUSED.dept)
    return requireScopeHeld(principal, shows)
  }

  private grantRoles(principal: Principal, roles: readonly RoleGrant[]) {
    if (roles.some((role) => role.isSuperAdmin)) return refuse(REFUSED.superAdmin)
    const refused = roles
      .filter((role) => notHeld(principal.access.menuIds, role.menuIds).length > 0)
      .map((role) => role.id)
      .sort((a, b) => a - b)
    if (refused.length === 0) return true
    return refuse(REFUSED.grantRoles, 'roles', refused)
  }
}
