import { AuthorizationResponse, BasePolicy } from '@adonisjs/bouncer'
import {
  type Principal,
  REFUSED,
  notHeld,
  requireCodesHeld,
  requireHeld,
} from '#policies/grant_rule'
import type { AccountHolding, RoleGrant } from '#policies/holdings'

const deny = (message: string) => AuthorizationResponse.deny(message, 403)

/**
 * Administrator accounts, for a non-super caller (an enabled super admin passes `before`). The
 * user service keeps the data invariants (the last enabled super admin, nobody disables, deletes
 * or re-roles their own account).
 */
export default class UserPolicy extends BasePolicy {
  before(principal: Principal) {
    if (principal.access.isSuperAdmin) return true
  }

  /** A new account: every role it gets grants nothing the caller lacks. */
  create(principal: Principal, roles: readonly RoleGrant[]) {
    return this.grantRoles(principal, roles)
  }

  /**
   * The account holds nothing the caller lacks: to edit, disable or re-enable it, delete it, clear
   * its login blocks, take it over (password or second-factor reset: granting oneself what it
   * holds), end one of its sessions or revoke one of its API tokens.
   */
  update = this.manage
  delete = this.manage
  unlock = this.manage
  resetPassword = this.manage
  resetTwoFactor = this.manage
  forceLogout = this.manage
  revokeApiToken = this.manage

  /** An own API token: every code it carries is held by the caller (tokens never hold more). */
  createApiToken(principal: Principal, codes: readonly string[]) {
    return requireCodesHeld(principal, codes, REFUSED.tokenCodes)
  }

  /** Replacing the role set: the account is managed by the caller, and what it gets is held. */
  assignRoles(principal: Principal, account: AccountHolding, added: readonly RoleGrant[]) {
    const target = this.manage(principal, account)
    if (target !== true) return target
    return this.grantRoles(principal, added)
  }

  private manage(principal: Principal, account: AccountHolding) {
    if (account.isSuperAdmin) return deny(REFUSED.superAdmin)
    return requireHeld(principal, account.menuIds, REFUSED.target)
  }

  private grantRoles(principal: Principal, roles: readonly RoleGrant[]) {
    if (roles.some((role) => role.isSuperAdmin)) return deny(REFUSED.superAdmin)
    const refused = roles
      .filter((role) => notHeld(principal.access.menuIds, role.menuIds).length > 0)
      .map((role) => role.id)
      .sort((a, b) => a - b)
    if (refused.length === 0) return true
    return deny(`${REFUSED.grantRoles}; refused: role id(s) ${refused.join(', ')}`)
  }
}
