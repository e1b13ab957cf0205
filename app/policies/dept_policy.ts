import { BasePolicy } from '@adonisjs/bouncer'
import { type Principal, REFUSED, requireScopeHeld, refuse } from '#policies/grant_rule'
import { seesDept } from '#services/admin/data_scope'

const deny = () => refuse(REFUSED.dept)

/**
 * Departments, for a caller without the `all` scope (a super admin passes `before`). The tree is
 * what scopes are measured on, so changing it is a grant: a caller touches only departments it
 * sees, and never moves one under a department it does not see (that would hand the subtree to
 * the holders of `dept_and_children` there). Moving a department it does not see into its own
 * subtree is refused by the first rule: it cannot even name it (404).
 */
export default class DeptPolicy extends BasePolicy {
  before(principal: Principal) {
    if (principal.access.isSuperAdmin) return true
  }

  /** A new department under one the caller sees (a new root only with `all`). */
  create(principal: Principal, parentId: number | null) {
    return seesDept(principal.access.scope, parentId) ? true : deny()
  }

  /**
   * Rename, re-sort, re-status: the department is seen. A move: the department and everything
   * below it are seen, and so is the new parent.
   */
  update(
    principal: Principal,
    dept: { id: number; subtree: number[] },
    move?: { parentId: number | null }
  ) {
    const { scope } = principal.access
    if (!seesDept(scope, dept.id)) return deny()
    if (!move) return true
    const subtree = requireScopeHeld(principal, dept.subtree, REFUSED.dept)
    if (subtree !== true) return subtree
    return seesDept(scope, move.parentId) ? true : deny()
  }

  delete(principal: Principal, dept: { id: number }) {
    return seesDept(principal.access.scope, dept.id) ? true : deny()
  }
}
