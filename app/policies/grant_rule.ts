import { AuthorizationResponse } from '@adonisjs/bouncer'
import { refusalOf } from '#exceptions/messages'
import type { AccessSnapshot } from '#auth/access_snapshot'
import type { DataScopeKind } from '#models/role'

/**
 * THE GRANT RULE (docs/architecture.md, "Authorization"): a non-super administrator acts only
 * within what they hold. Every grant, enable, re-code or move needs all it would grant held; every
 * disable, delete or take-over needs a target that holds nothing the caller lacks. Both reduce to
 * `withinHeld`; "held" is the request's snapshot, targets are compared by their STORED grants
 * (a disabled role grants all again once re-enabled). Pure: holdings.ts reads the sets.
 */

/** Who is asking: the Bouncer "user" of this application (app/auth/request_context.ts). */
export type Principal = { id: number; access: AccessSnapshot }

/** The menu ids of `ids` the caller does not hold (empty: within what the caller holds). */
export function notHeld(held: ReadonlySet<number>, ids: Iterable<number>): number[] {
  const missing = new Set<number>()
  for (const id of ids) if (!held.has(id)) missing.add(id)
  return [...missing].sort((a, b) => a - b)
}

export function withinHeld(held: ReadonlySet<number>, ids: Iterable<number>): boolean {
  return notHeld(held, ids).length === 0
}

/**
 * The verdict of the rule for a policy: true, or a 403 naming what is not held (the ids help an
 * administrator see what to ask a super admin for; they reveal nothing the caller cannot list).
 */
export function requireHeld(
  principal: Principal,
  ids: Iterable<number>,
  reason: Reason
): true | AuthorizationResponse {
  const missing = notHeld(principal.access.menuIds, ids)
  if (missing.length === 0) return true
  return refuse(reason, 'menus', missing)
}

/** The permission codes of `codes` the caller does not hold (sorted, without duplicates). */
export function codesNotHeld(principal: Principal, codes: Iterable<string>): string[] {
  const missing = new Set<string>()
  for (const code of codes) if (!principal.access.can(code)) missing.add(code)
  return [...missing].sort()
}

/** The rule for permission codes handed on (an API token's): all of them held, or a 403 naming the rest. */
export function requireCodesHeld(
  principal: Principal,
  codes: Iterable<string>,
  reason: Reason
): true | AuthorizationResponse {
  const missing = codesNotHeld(principal, codes)
  if (missing.length === 0) return true
  return refuse(reason, 'codes', missing)
}

/** The roles the caller is assigned, whatever their status. */
export function holdsRole(principal: Principal, roleId: number): boolean {
  return principal.access.roles.some((role) => role.id === roleId)
}

/** A node and everything below it, from a parent map (the whole tree is one small query). */
export function subtreeOf(rootId: number, parents: ReadonlyMap<number, number | null>): number[] {
  const children = new Map<number, number[]>()
  for (const [id, parentId] of parents) {
    if (parentId === null) continue
    const list = children.get(parentId)
    if (list) list.push(id)
    else children.set(parentId, [id])
  }
  const result: number[] = []
  const seen = new Set<number>()
  const stack = [rootId]
  while (stack.length) {
    const id = stack.pop()!
    if (seen.has(id)) continue // a cycle in corrupted data ends the walk
    seen.add(id)
    result.push(id)
    stack.push(...(children.get(id) ?? []))
  }
  return result
}

/**
 * DATA SCOPES are held like menus: what a role shows its holders, or an account is shown by its
 * roles, is a set of departments (or `all`), and a non-super caller hands on only departments it
 * sees itself. A role's scope is relative to who holds it (`dept`: the holder's department), so
 * it is measured on its holders, or on the account it is being given to.
 */
export type ScopeGrant = { dataScope: DataScopeKind; deptIds: readonly number[] }

/** What the departments `grants` show accounts in `holderDepts`: `all`, or a set of ids. */
export function deptsShown(
  grants: readonly ScopeGrant[],
  holderDepts: readonly (number | null)[],
  parents: ReadonlyMap<number, number | null>
): 'all' | Set<number> {
  const shown = new Set<number>()
  for (const grant of grants) {
    if (grant.dataScope === 'all') return 'all'
    if (grant.dataScope === 'custom') for (const id of grant.deptIds) shown.add(id)
    for (const deptId of holderDepts) {
      if (deptId === null || !parents.has(deptId)) continue
      if (grant.dataScope === 'dept') shown.add(deptId)
      if (grant.dataScope === 'dept_and_children') {
        for (const id of subtreeOf(deptId, parents)) shown.add(id)
      }
    }
  }
  return shown
}

/** The rule for data scopes: every department `shown` is seen by the caller, or a 403 naming the rest. */
export function requireScopeHeld(
  principal: Principal,
  shown: 'all' | Iterable<number>,
  reason: Reason = REFUSED.scope
): true | AuthorizationResponse {
  const { scope } = principal.access
  if (scope.all) return true
  if (shown === 'all') return refuse(reason, 'all')
  const missing = notHeld(scope.deptIds, shown)
  if (missing.length === 0) return true
  return refuse(reason, 'depts', missing)
}

/**
 * Why the rule refuses, shared by the policies: each names its message in
 * resources/lang/<locale>/errors.json (`refused.<reason>`), clients may show it.
 */
export const REFUSED = {
  route: 'route',
  grant: 'grant',
  grantRoles: 'grantRoles',
  target: 'target',
  ownRole: 'ownRole',
  superAdmin: 'superAdmin',
  code: 'code',
  tokenCodes: 'tokenCodes',
  publish: 'publish',
  scope: 'scope',
  dept: 'dept',
} as const
export type Reason = keyof typeof REFUSED

/** What is not held, named after the reason: `notHeld.<kind>` in the catalog, with the ids. */
type NotHeld = 'menus' | 'codes' | 'all' | 'depts' | 'roles'

/**
 * A 403 verdict for `reason`, with what is not held (the ids help an administrator see what to
 * ask a super admin for; they reveal nothing the caller cannot list). The handler renders it in
 * the caller's language from its translation identifier and data; `message` is the English one.
 */
export function refuse(reason: Reason, missing?: NotHeld, ids: (number | string)[] = []) {
  const data = missing ? { notHeld: `notHeld.${missing}`, ids: ids.join(', ') } : {}
  return AuthorizationResponse.deny(refusalOf(`errors.refused.${reason}`, data), 403).t(
    `errors.refused.${reason}`,
    data
  )
}
