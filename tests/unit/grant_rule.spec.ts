import { test } from '@japa/runner'
import type { Assert } from '@japa/assert'
import { AuthorizationResponse } from '@adonisjs/bouncer'
import {
  type Principal,
  REFUSED,
  codesNotHeld,
  holdsRole,
  notHeld,
  requireHeld,
  deptsShown,
  subtreeOf,
  withinHeld,
} from '#policies/grant_rule'
import RolePolicy from '#policies/role_policy'
import UserPolicy from '#policies/user_policy'
import MenuPolicy from '#policies/menu_policy'
import ArticlePolicy from '#policies/article_policy'
import { PERMISSIONS } from '#auth/permissions'
import { AccessSnapshot, type DataScope } from '#auth/access_snapshot'
import DeptPolicy from '#policies/dept_policy'

/**
 * The grant rule's pure functions and the policies' decisions, called directly with a fake
 * principal (no database, no HTTP): app/policies/grant_rule.ts.
 */
const principal = (
  menuIds: number[],
  codes: string[] = [],
  roleIds: number[] = [],
  isSuperAdmin = false,
  scope: DataScope = { all: true, self: false, deptIds: new Set() }
): Principal => ({
  id: 1,
  access: {
    isSuperAdmin,
    scope,
    menuIds: new Set(menuIds),
    roles: roleIds.map((id) => ({ id, code: `r${id}`, name: `R${id}`, status: 'enabled' })),
    can: (code: string) => isSuperAdmin || codes.includes(code),
  } as any,
})

/** A denial of the grant rule: an AuthorizationResponse with authorized false and a 403. */
function assertDenied(assert: Assert, verdict: unknown, fragment?: string) {
  assert.instanceOf(verdict, AuthorizationResponse)
  const response = verdict as AuthorizationResponse
  assert.isFalse(response.authorized)
  assert.equal(response.status, 403)
  if (fragment && fragment in REFUSED) {
    assert.equal(response.translation?.identifier, `errors.refused.${fragment}`)
  } else if (fragment) {
    assert.include(response.message, fragment)
  }
}

const role = (id: number, menuIds: number[], extra = {}) => ({
  id,
  isSuperAdmin: false,
  isSystem: false,
  menuIds,
  dataScope: 'self' as const,
  deptIds: [],
  holderDepts: [],
  shows: new Set<number>(),
  ...extra,
})

test.group('Grant rule: pure functions', () => {
  test('notHeld lists missing ids once, sorted; withinHeld is its emptiness', ({ assert }) => {
    const held = new Set([1, 2, 3])
    assert.deepEqual(notHeld(held, [5, 2, 4, 5, 1]), [4, 5])
    assert.deepEqual(notHeld(held, []), [])
    assert.deepEqual(notHeld(new Set(), [3, 1]), [1, 3])
    assert.isTrue(withinHeld(held, [3, 1, 1]))
    assert.isTrue(withinHeld(held, []))
    assert.isFalse(withinHeld(held, [1, 9]))
  })

  test('requireHeld is true or a 403 naming the missing ids', ({ assert }) => {
    const caller = principal([1, 2])
    assert.isTrue(requireHeld(caller, [2, 1], 'grant'))
    assertDenied(
      assert,
      requireHeld(caller, [9, 1, 7], 'grant'),
      'You may only grant menus and permissions you hold yourself; not held: menu id(s) 7, 9'
    )
  })

  test('subtreeOf walks a node and everything below it, and stops on a cycle', ({ assert }) => {
    // 1 > 2 > 3, 1 > 4, 5 (another root); 6 <-> 7 a cycle of corrupted data.
    const parents = new Map<number, number | null>([
      [1, null],
      [2, 1],
      [3, 2],
      [4, 1],
      [5, null],
      [6, 7],
      [7, 6],
    ])
    const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b)
    assert.deepEqual(sorted(subtreeOf(1, parents)), [1, 2, 3, 4])
    assert.deepEqual(sorted(subtreeOf(2, parents)), [2, 3])
    assert.deepEqual(subtreeOf(3, parents), [3])
    assert.deepEqual(subtreeOf(5, parents), [5])
    assert.deepEqual(sorted(subtreeOf(6, parents)), [6, 7])
    assert.deepEqual(subtreeOf(99, parents), [99])
  })

  test('holdsRole: any assigned role, by id', ({ assert }) => {
    const caller = principal([], [], [3, 8])
    assert.isTrue(holdsRole(caller, 8))
    assert.isFalse(holdsRole(caller, 4))
    assert.isFalse(holdsRole(principal([]), 3))
  })
})

test.group('Grant rule: RolePolicy', () => {
  const policy = new RolePolicy()

  test('create: only held nodes', ({ assert }) => {
    const caller = principal([1, 2, 3])
    assert.isTrue(policy.create(caller, [1, 3], []))
    assert.isTrue(policy.create(caller, [], []))
    assertDenied(assert, policy.create(caller, [1, 4], []), REFUSED.grant)
  })

  test('update: target within held; never the status of an own role; never super/system', ({
    assert,
  }) => {
    const caller = principal([1, 2, 3], [], [10])
    assert.isTrue(policy.update(caller, role(11, [1, 2]), { status: true }))
    assert.isTrue(policy.update(caller, role(11, []), { status: false }))
    assertDenied(assert, policy.update(caller, role(11, [1, 4]), { status: false }), REFUSED.target)
    assertDenied(assert, policy.update(caller, role(11, [1, 4]), { status: true }), REFUSED.target)
    // Its own role: renaming is fine, a status change is not (even when within held).
    assert.isTrue(policy.update(caller, role(10, [1]), { status: false }))
    assertDenied(assert, policy.update(caller, role(10, [1]), { status: true }), REFUSED.ownRole)
    assertDenied(
      assert,
      policy.update(caller, role(12, [], { isSuperAdmin: true }), { status: false }),
      REFUSED.superAdmin
    )
    assertDenied(
      assert,
      policy.update(caller, role(13, [], { isSystem: true }), { status: false }),
      REFUSED.superAdmin
    )
  })

  test('delete and assignMenus: target within held, before and after', ({ assert }) => {
    const caller = principal([1, 2, 3])
    assert.isTrue(policy.delete(caller, role(11, [1])))
    assertDenied(assert, policy.delete(caller, role(11, [1, 9])), REFUSED.target)
    assert.isTrue(policy.assignMenus(caller, role(11, [1]), [2, 3]))
    assert.isTrue(policy.assignMenus(caller, role(11, [1]), []))
    assertDenied(assert, policy.assignMenus(caller, role(11, [9]), []), REFUSED.target)
    assertDenied(assert, policy.assignMenus(caller, role(11, [1]), [1, 9]), REFUSED.grant)
  })

  test('before: an enabled super admin passes, others fall through', ({ assert }) => {
    assert.isTrue(policy.before(principal([], [], [], true)))
    assert.isUndefined(policy.before(principal([1])))
  })
})

test.group('Grant rule: UserPolicy', () => {
  const policy = new UserPolicy()
  const account = (menuIds: number[], isSuperAdmin = false) => ({
    id: 5,
    isSuperAdmin,
    menuIds,
    deptId: null,
    roles: [],
    shows: new Set<number>(),
  })
  const nowhere = { deptId: null, shows: [] }

  test('update, delete, resetPassword: the account holds nothing the caller lacks', ({
    assert,
  }) => {
    const caller = principal([1, 2, 3])
    for (const ability of ['update', 'delete', 'resetPassword'] as const) {
      assert.isTrue(policy[ability](caller, account([1, 2, 2])))
      assert.isTrue(policy[ability](caller, account([])))
      assertDenied(assert, policy[ability](caller, account([1, 4])), REFUSED.target)
      assertDenied(assert, policy[ability](caller, account([], true)), REFUSED.superAdmin)
    }
  })

  test('create and assignRoles: every role granted is within held, never the super role', ({
    assert,
  }) => {
    const caller = principal([1, 2, 3])
    assert.isTrue(policy.create(caller, [role(20, [1]), role(21, [2, 3])], nowhere))
    assertDenied(
      assert,
      policy.create(caller, [role(22, [9]), role(20, [1]), role(21, [8])], nowhere),
      'You may only grant roles whose menus and permissions you hold yourself; refused: role id(s) 21, 22'
    )
    assertDenied(
      assert,
      policy.create(caller, [role(23, [], { isSuperAdmin: true })], nowhere),
      REFUSED.superAdmin
    )
    assert.isTrue(policy.assignRoles(caller, account([1]), [role(20, [2])], []))
    assert.isTrue(policy.assignRoles(caller, account([1]), [], []))
    assertDenied(assert, policy.assignRoles(caller, account([9]), [], []), REFUSED.target)
    assertDenied(
      assert,
      policy.assignRoles(caller, account([1]), [role(20, [9])], []),
      'role id(s) 20'
    )
  })
})

test.group('Grant rule: MenuPolicy', () => {
  const policy = new MenuPolicy()
  const caller = principal([1, 2, 3], ['a:b:c'])

  test('update: node and whole subtree held; a new code held; a new parent held', ({ assert }) => {
    assert.isTrue(policy.update(caller, { id: 2, subtree: [2, 3] }, {}))
    assertDenied(assert, policy.update(caller, { id: 2, subtree: [2, 4] }, {}), REFUSED.target)
    assert.isTrue(policy.update(caller, { id: 3, subtree: [3] }, { permission: 'a:b:c' }))
    assertDenied(
      assert,
      policy.update(caller, { id: 3, subtree: [3] }, { permission: 'x:y:z' }),
      REFUSED.code
    )
    // Clearing a code (null) or moving to the root grants nothing.
    assert.isTrue(policy.update(caller, { id: 3, subtree: [3] }, { permission: null }))
    assert.isTrue(policy.update(caller, { id: 2, subtree: [2, 3] }, { parentId: null }))
    assert.isTrue(policy.update(caller, { id: 3, subtree: [3] }, { parentId: 1 }))
    assertDenied(
      assert,
      policy.update(caller, { id: 3, subtree: [3] }, { parentId: 7 }),
      'menu id(s) 7'
    )
  })

  test('create and delete', ({ assert }) => {
    assert.isTrue(policy.create(caller, { permission: 'a:b:c', parentId: 2 }))
    assert.isTrue(policy.create(caller, { permission: null, parentId: null }))
    assertDenied(assert, policy.create(caller, { permission: 'x:y:z', parentId: 2 }), REFUSED.code)
    assertDenied(assert, policy.create(caller, { parentId: 8 }), REFUSED.grant)
    assert.isTrue(policy.delete(caller, { id: 1, subtree: [1, 2, 3] }))
    assertDenied(assert, policy.delete(caller, { id: 1, subtree: [1, 2, 3, 4] }), REFUSED.target)
  })
})

test.group('Grant rule: ArticlePolicy', () => {
  const policy = new ArticlePolicy()

  test('a published article needs the publish code; others do not', ({ assert }) => {
    const editor = principal([], [PERMISSIONS.article.update])
    const publisher = principal([], [PERMISSIONS.article.update, PERMISSIONS.article.publish])
    for (const ability of ['update', 'delete'] as const) {
      assertDenied(assert, policy[ability](editor, { status: 'published' }), REFUSED.publish)
      assert.isTrue(policy[ability](editor, { status: 'draft' }))
      assert.isTrue(policy[ability](editor, { status: 'archived' }))
      assert.isTrue(policy[ability](publisher, { status: 'published' }))
    }
  })
})

test.group('Grant rule: API tokens', () => {
  const policy = new UserPolicy()

  test('a token carries only codes the creator holds; a refusal names the others', ({ assert }) => {
    const caller = principal([], ['a:b:list', 'a:b:create'])
    assert.isTrue(policy.createApiToken(caller, ['a:b:list']))
    assert.deepEqual(codesNotHeld(caller, ['z:z:z', 'a:b:list', 'y:y:y', 'z:z:z']), [
      'y:y:y',
      'z:z:z',
    ])
    assertDenied(
      assert,
      policy.createApiToken(caller, ['a:b:list', 'a:b:delete']),
      'An API token may only carry permission codes you hold yourself; not held: a:b:delete'
    )
  })

  test('a token holds the codes it carries that the owner holds, the uncoded nodes, never super admin', ({
    assert,
  }) => {
    // 1 directory, 2 page, 3 and 4 buttons; the owner is a super admin.
    const owner = new AccessSnapshot(
      [{ id: 9, code: 'super_admin', name: 'Super', status: 'enabled' }],
      true,
      [],
      new Set([1, 2, 3, 4]),
      ['a:b:list', 'a:b:delete'],
      new Map([
        [3, 'a:b:list'],
        [4, 'a:b:delete'],
      ])
    )
    // A super admin holds every catalogued code; a code outside the owner's holdings is dropped.
    const token = owner.narrowedTo(['a:b:list', PERMISSIONS.user.create, 'c:d:create'])
    assert.isFalse(token.isSuperAdmin)
    assert.sameMembers([...token.permissions], ['a:b:list', PERMISSIONS.user.create])
    // Node 4 carries a code the token lacks: not held with the token (what the grant rule counts).
    assert.deepEqual([...token.menuIds], [1, 2, 3])
    assert.deepEqual(token.roles, owner.roles)
    assert.isTrue(owner.can(PERMISSIONS.user.delete))
    assert.isFalse(token.can(PERMISSIONS.user.delete))
  })
})

test.group('Grant rule: data scopes', () => {
  // 1 -> 2 -> 3, 1 -> 4; 5 apart.
  const parents = new Map<number, number | null>([
    [1, null],
    [2, 1],
    [3, 2],
    [4, 1],
    [5, null],
  ])
  const scoped = (deptIds: number[], self = false) =>
    principal([1, 2, 3], [], [], false, { all: false, self, deptIds: new Set(deptIds) })
  const grant = (dataScope: any, deptIds: number[] = []) => ({ dataScope, deptIds })

  test('deptsShown: each kind, measured on the holders', ({ assert }) => {
    assert.equal(deptsShown([grant('all')], [2], parents), 'all')
    assert.sameMembers([...(deptsShown([grant('dept')], [2], parents) as Set<number>)], [2])
    assert.sameMembers(
      [...(deptsShown([grant('dept_and_children')], [2, 4], parents) as Set<number>)],
      [2, 3, 4]
    )
    assert.sameMembers([...(deptsShown([grant('custom', [5])], [2], parents) as Set<number>)], [5])
    assert.isEmpty([...(deptsShown([grant('self')], [2], parents) as Set<number>)])
    // No department, or one that does not exist: the relative scopes show nothing.
    assert.isEmpty([...(deptsShown([grant('dept_and_children')], [null, 99], parents) as any)])
  })

  test('roles: a scope within the caller only', ({ assert }) => {
    const policy = new RolePolicy()
    const caller = scoped([2, 3])
    assert.isTrue(policy.create(caller, [], [2, 3]))
    assertDenied(assert, policy.create(caller, [], 'all'), REFUSED.scope)
    assertDenied(assert, policy.create(caller, [], [3, 4]), 'dept id(s) 4')
    // A role showing its holders more than the caller sees is not the caller's to touch.
    assertDenied(assert, policy.delete(caller, role(11, [], { shows: 'all' })), REFUSED.target)
    assert.isTrue(policy.update(caller, role(11, [], { shows: new Set([3]) }), { status: false }))
    assertDenied(
      assert,
      policy.update(caller, role(11, []), { status: false, shows: new Set([1, 2]) }),
      'dept id(s) 1'
    )
    // A caller with `all` may hand on anything.
    assert.isTrue(policy.create(principal([]), [], 'all'))
  })

  test('accounts: placed in a seen department, shown only what the caller sees', ({ assert }) => {
    const policy = new UserPolicy()
    const caller = scoped([2, 3])
    const account = (deptId: number | null, shows: 'all' | Set<number>) => ({
      id: 5,
      isSuperAdmin: false,
      menuIds: [],
      deptId,
      roles: [],
      shows,
    })
    assert.isTrue(policy.create(caller, [], { deptId: 3, shows: [3] }))
    assertDenied(assert, policy.create(caller, [], { deptId: 4, shows: [] }), REFUSED.dept)
    assertDenied(assert, policy.create(caller, [], { deptId: null, shows: [] }), REFUSED.dept)
    assertDenied(assert, policy.create(caller, [], { deptId: 3, shows: 'all' }), REFUSED.scope)
    assert.isTrue(policy.update(caller, account(3, new Set([3]))))
    assertDenied(assert, policy.update(caller, account(3, 'all')), REFUSED.target)
    assertDenied(
      assert,
      policy.update(caller, account(3, new Set()), { deptId: 1, shows: [] }),
      REFUSED.dept
    )
    assertDenied(
      assert,
      policy.assignRoles(caller, account(2, new Set()), [role(20, [])], [2, 4]),
      'dept id(s) 4'
    )
  })

  test('departments: only seen ones, never moved under an unseen one', ({ assert }) => {
    const policy = new DeptPolicy()
    const caller = scoped([2, 3])
    assert.isTrue(policy.create(caller, 2))
    assertDenied(assert, policy.create(caller, null), REFUSED.dept)
    assertDenied(assert, policy.create(caller, 4), REFUSED.dept)
    assert.isTrue(policy.update(caller, { id: 3, subtree: [3] }))
    assert.isTrue(policy.update(caller, { id: 3, subtree: [3] }, { parentId: 2 }))
    assertDenied(assert, policy.update(caller, { id: 3, subtree: [3] }, { parentId: 1 }))
    assertDenied(assert, policy.update(caller, { id: 4, subtree: [4] }, { parentId: 2 }))
    // A seen department whose subtree is not all seen stays where it is.
    assertDenied(assert, policy.update(caller, { id: 2, subtree: [2, 3, 9] }, { parentId: 3 }))
    assert.isTrue(policy.delete(caller, { id: 3 }))
    assertDenied(assert, policy.delete(caller, { id: 1 }), REFUSED.dept)
  })
})
