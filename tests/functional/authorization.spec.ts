import { test } from '@japa/runner'
import type { Assert } from '@japa/assert'
import type { ApiClient, ApiRequest, ApiResponse } from '@japa/api-client'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import Menu from '#models/menu'
import Role from '#models/role'
import Article from '#models/article'
import { ALL_PERMISSION_CODES, PERMISSIONS as P } from '#auth/permissions'
import { isolate, resetDatabase, withRealCommits } from '#tests/helpers/database'
import { assertForbidden } from '#tests/helpers/assertions'
import { challengeAnswer, countQueries, sessionToken } from '#tests/helpers/auth'
import { newCaptcha, rightVerify } from '#tests/helpers/captcha'
import {
  button,
  chainOf,
  menuIdsOf,
  permissionsOf,
  rbacTables,
  roleIdsOf,
  seededAdmin,
  sorted,
  superRole,
} from '#tests/helpers/rbac'
import { RoleFactory, roleWithPermissions } from '#database/factories/role_factory'
import { UserFactory, superAdminUser, userWithPermissions } from '#database/factories/user_factory'
import { MenuFactory } from '#database/factories/menu_factory'
import { ArticleFactory } from '#database/factories/article_factory'

/**
 * Authorization over HTTP, by policy (README, "Authorization"). The decisions themselves are unit
 * tested as pure functions (tests/unit/grant_rule.spec.ts); here each policy method is shown to
 * be consulted by its route (a refused request is a 403 in the error contract that leaves the
 * tables and every watched account's /me as they were; an allowed one succeeds), then the
 * attacks that need a database: disabled-but-stored grants, the super-admin protections,
 * self-lockout and races. The route-level ability (`hasPermission`, one `can` per route) is walked
 * route by route in admin_routes.spec.ts.
 */
const TARGET = 'You may only change what holds no more than you do'
const GRANT = 'You may only grant menus and permissions you hold yourself'
const ROLES = 'You may only grant roles whose menus and permissions you hold yourself'
const CODE = 'You may only set a permission code you hold yourself'
const SUPER = 'Only a super administrator'
const OWN_ROLE = 'You cannot change the status of a role you hold'
const PUBLISH = 'requires the publish permission'
const LAST_SUPER = 'last enabled super administrator'

type Send = (client: ApiClient) => ApiRequest
/** A request that must be refused (403 naming `refusal`), by `as` or the case's caller. */
type Refused = { send: Send; refusal: string; as?: User }
/** A request that must succeed with `status`; `then` checks what it did. */
type Allowed = { send: Send; status: number; as?: User | 'admin'; then?: Then }
type Case = {
  caller: User
  watch?: User[]
  refused: Refused[]
  /** What else must still hold after the refusals. */
  after?: () => Promise<unknown>
  allowed?: Allowed[]
}

type Then = (response: ApiResponse) => unknown
const no = (send: Send, refusal: string, as?: User): Refused => ({ send, refusal, as })
const ok = (send: Send, status: number, then?: Then): Allowed => ({ send, status, then })
/** Allowed for the seeded super administrator. */
const su = (send: Send, status: number, then?: Then): Allowed => ({
  send,
  status,
  then,
  as: 'admin',
})
const put = (url: string, body: object) => (client: ApiClient) => client.put(url).json(body)
const post =
  (url: string, body: object = {}) =>
  (client: ApiClient) =>
    client.post(url).json(body)
const del = (url: string) => (client: ApiClient) => client.delete(url)
const PASSWORD = { password: 'Taken-Over-Passw0rd-9' }

/** Runs the refusals (nothing changes, for anyone watched), then the allowed requests. */
async function judge(client: ApiClient, assert: Assert, c: Case) {
  const watched = [c.caller, ...(c.watch ?? [])]
  const tables = await rbacTables()
  const me = await permissionsOf(client, watched)
  for (const { send, refusal, as } of c.refused) {
    assertForbidden(assert, await send(client).loginAs(as ?? c.caller), refusal)
  }
  assert.deepEqual(await rbacTables(), tables)
  assert.deepEqual(await permissionsOf(client, watched), me)
  await c.after?.()
  for (const { send, status, as, then } of c.allowed ?? []) {
    const response = await send(client).loginAs(
      as === 'admin' ? await seededAdmin() : (as ?? c.caller)
    )
    assert.equal(response.status(), status, JSON.stringify(response.body()))
    await then?.(response)
  }
}

type Tools = { client: ApiClient; assert: Assert }
type Row = { name: string; arrange: (t: Tools) => Promise<Case> }
const run = (rows: Row[]) =>
  test('{name}')
    .with(rows)
    .run(async ({ client, assert }, row) =>
      judge(client, assert, await row.arrange({ client, assert }))
    )

/** An administrator holding every permission code through an ordinary role. */
const ordinaryAdmin = async () => (await userWithPermissions(ALL_PERMISSION_CODES)).user

const users = (id: number, tail = '') => `/api/admin/users/${id}${tail}`
const roles = (id: number, tail = '') => `/api/admin/roles/${id}${tail}`
const menus = (id: number) => `/api/admin/menus/${id}`
const articles = (id: number) => `/api/admin/articles/${id}`
const meWith = (client: ApiClient, token: string) => client.get('/api/auth/me').bearerToken(token)

test.group('Authorization: UserPolicy', (group) => {
  isolate(group)

  run([
    {
      name: 'create: only roles within what the caller holds, never super_admin',
      arrange: async ({ client, assert }) => {
        const codes = [P.user.create, P.user.assignRoles, P.user.list]
        const { user: caller } = await userWithPermissions(codes)
        const [weak, strong, empty] = await Promise.all([
          roleWithPermissions([P.user.list]),
          roleWithPermissions([P.user.delete]),
          RoleFactory.create(),
        ])
        const root = await superRole()
        const create = (account: string, roleIds: number[]) =>
          post('/api/admin/users', { account, password: 'Marionette-strings-42', roleIds })
        const rolesOf = async (account: string) =>
          roleIdsOf((await User.findByOrFail('account', account)).id)
        return {
          caller,
          refused: [
            no(
              create('puppet', [weak.id, strong.id]),
              `${ROLES}; refused: role id(s) ${strong.id}`
            ),
            no(create('root2', [root.id]), SUPER, await ordinaryAdmin()),
          ],
          allowed: [
            ok(create('puppet', [weak.id, empty.id]), 201, async () => {
              assert.deepEqual(await rolesOf('puppet'), sorted([weak.id, empty.id]))
              const puppet = await User.findByOrFail('account', 'puppet')
              // Its first sign-in changes the password the creator chose (password_lifecycle.spec.ts).
              await puppet.merge({ mustChangePassword: false }).save()
              ;(await client.get('/api/admin/users').loginAs(puppet)).assertStatus(200)
            }),
            su(create('strong', [strong.id]), 201, async () =>
              assert.deepEqual(await rolesOf('strong'), [strong.id])
            ),
            su(create('root2', [root.id]), 201, (r) =>
              assert.deepEqual(r.body().data.roleIds, [root.id])
            ),
          ],
        }
      },
    },
    {
      name: 'update: an account holding more, or a super admin, is not edited, disabled or re-enabled',
      arrange: async ({ client, assert }) => {
        const { user: caller } = await userWithPermissions([P.user.update])
        const { user: victim } = await userWithPermissions([P.user.update, P.role.delete])
        // An account a super admin disabled, holding more than the caller.
        const { user: parked } = await userWithPermissions([P.user.update, P.menu.delete], {
          status: 'disabled',
        })
        const { user: richer } = await userWithPermissions(Object.values(P.user))
        const other = await superAdminUser({ nickname: 'Other root' })
        const [admin, ordinary, plain] = [
          await seededAdmin(),
          await ordinaryAdmin(),
          await UserFactory.create(),
        ]
        const stored = (user: User) => User.findOrFail(user.id)
        return {
          caller,
          watch: [victim, other, admin],
          refused: [
            no(put(users(victim.id), { status: 'disabled' }), TARGET),
            no(put(users(parked.id), { status: 'enabled' }), TARGET),
            ...[other, admin].flatMap((target) => [
              no(put(users(target.id), { nickname: 'Hijacked' }), SUPER, ordinary),
              no(put(users(target.id), { status: 'disabled' }), SUPER, ordinary),
            ]),
          ],
          allowed: [
            ok(put(users(plain.id), { nickname: 'Renamed' }), 200, async () =>
              assert.equal((await stored(plain)).nickname, 'Renamed')
            ),
            su(put(users(other.id), { nickname: 'Renamed root' }), 200, async () =>
              assert.equal((await stored(other)).nickname, 'Renamed root')
            ),
            su(put(users(richer.id), { status: 'disabled' }), 200, async () =>
              assert.equal((await stored(richer)).status, 'disabled')
            ),
            su(put(users(other.id), { status: 'disabled' }), 200, async () => {
              assert.equal((await stored(other)).status, 'disabled')
              ;(await client.get('/api/admin/users').loginAs(other)).assertStatus(401)
            }),
          ],
        }
      },
    },
    {
      name: 'delete: not an account holding more, nor a super admin',
      arrange: async ({ assert }) => {
        const { user: caller } = await userWithPermissions([P.user.delete])
        const { user: victim } = await userWithPermissions([P.user.update, P.role.delete])
        const [other, admin, ordinary] = [
          await superAdminUser(),
          await seededAdmin(),
          await ordinaryAdmin(),
        ]
        const plain = await UserFactory.create()
        const gone = (user: User) => async () => assert.isNull(await User.find(user.id))
        return {
          caller,
          watch: [victim, other, admin],
          refused: [
            no(del(users(victim.id)), TARGET),
            no(del(users(other.id)), SUPER, ordinary),
            no(del(users(admin.id)), SUPER, ordinary),
          ],
          allowed: [
            ok(del(users(plain.id)), 204, gone(plain)),
            su(del(users(other.id)), 204, gone(other)),
          ],
        }
      },
    },
    {
      name: 'assignRoles: not on an account holding more (not even to strip it), nor granting more',
      arrange: async ({ client, assert }) => {
        const { user: caller, role: own } = await userWithPermissions([
          P.user.create,
          P.user.assignRoles,
          P.user.list,
        ])
        const weak = await roleWithPermissions([P.user.list])
        const strong = await roleWithPermissions([P.user.delete])
        const wider = await roleWithPermissions([P.user.list, P.user.delete])
        const [target, richer, within, fresh, promoted, demoted] = await UserFactory.createMany(6)
        await target.related('roles').attach([weak.id])
        await within.related('roles').attach([weak.id])
        await richer.related('roles').attach([strong.id])
        const [admin, ordinary, root, plainRole] = [
          await seededAdmin(),
          await ordinaryAdmin(),
          await superRole(),
          await RoleFactory.create(),
        ]
        await demoted.related('roles').attach([root.id])
        const assign = (user: User, roleIds: number[]) => put(users(user.id, '/roles'), { roleIds })
        const rolesAre = (user: User, ids: number[]) => async () =>
          assert.deepEqual(await roleIdsOf(user.id), sorted(ids))
        return {
          caller,
          watch: [target, richer, demoted, admin],
          refused: [
            no(assign(target, [weak.id, wider.id]), `${ROLES}; refused: role id(s) ${wider.id}`),
            ...[[strong.id, weak.id], [weak.id], []].map((ids) => no(assign(richer, ids), TARGET)),
            no(assign(promoted, [root.id]), SUPER, ordinary),
            no(assign(demoted, [plainRole.id]), SUPER, ordinary),
            no(assign(admin, []), SUPER, ordinary),
          ],
          allowed: [
            ok(assign(within, []), 200, rolesAre(within, [])),
            ok(assign(fresh, [own.id, weak.id]), 200, rolesAre(fresh, [own.id, weak.id])),
            su(assign(richer, [wider.id]), 200, rolesAre(richer, [wider.id])),
            su(assign(promoted, [root.id]), 200, async () => {
              await rolesAre(promoted, [root.id])()
              // The new super admin holds every permission on its next request.
              ;(await client.get('/api/admin/menus/tree').loginAs(promoted)).assertStatus(200)
            }),
            su(assign(demoted, [plainRole.id]), 200, async () => {
              await rolesAre(demoted, [plainRole.id])()
              ;(await client.get('/api/admin/users').loginAs(demoted)).assertStatus(403)
            }),
          ],
        }
      },
    },
    {
      name: 'resetPassword: no takeover of an account holding more, nor of a super admin',
      arrange: async ({ assert }) => {
        const { user: caller } = await userWithPermissions([P.user.resetPassword, P.user.list])
        const { user: stronger } = await userWithPermissions([P.user.list, P.user.delete])
        const [weaker, other, admin, ordinary] = [
          await UserFactory.create(),
          await superAdminUser(),
          await seededAdmin(),
          await ordinaryAdmin(),
        ]
        const reset = (user: User) => post(users(user.id, '/password-reset'), PASSWORD)
        const versionIs = (user: User, version: number) => async () =>
          assert.equal((await User.findOrFail(user.id)).tokenVersion, version)
        return {
          caller,
          watch: [stronger, other, admin],
          refused: [
            no(reset(stronger), TARGET),
            no(reset(other), SUPER, ordinary),
            no(reset(admin), SUPER, ordinary),
          ],
          allowed: [
            ok(reset(weaker), 200, versionIs(weaker, 1)),
            su(reset(stronger), 200, versionIs(stronger, 1)),
            su(reset(other), 200, versionIs(other, 1)),
          ],
        }
      },
    },
    {
      name: 'unlock: not an account holding more, nor a super admin',
      arrange: async () => {
        const { user: caller } = await userWithPermissions([P.user.unlock, P.user.list])
        const { user: richer } = await userWithPermissions([P.user.list, P.user.delete])
        const [other, plain] = [await superAdminUser(), await UserFactory.create()]
        return {
          caller,
          refused: [
            no(post(users(richer.id, '/unlock')), TARGET),
            no(post(users(other.id, '/unlock')), SUPER, await ordinaryAdmin()),
          ],
          allowed: [ok(post(users(plain.id, '/unlock')), 200)],
        }
      },
    },
    {
      name: 'forceLogout: not a session of an account holding more, nor of a super admin',
      arrange: async ({ client }) => {
        const { user: caller } = await userWithPermissions([P.session.list, P.session.forceLogout])
        const { user: richer } = await userWithPermissions([P.session.list, P.user.delete])
        const [boss, other] = [await superAdminUser(), await superAdminUser()]
        const [richerSession, bossSession] = [
          await sessionToken(richer.id),
          await sessionToken(boss.id),
        ]
        const end = (id: string) => del(`/api/admin/sessions/${id}`)
        return {
          caller,
          refused: [
            no(end(richerSession.sessionId), TARGET),
            no(end(bossSession.sessionId), SUPER),
          ],
          after: async () => {
            for (const { token } of [richerSession, bossSession]) {
              ;(await meWith(client, token)).assertStatus(200)
            }
          },
          allowed: [
            {
              ...ok(end(bossSession.sessionId), 204, async () =>
                (await meWith(client, bossSession.token)).assertStatus(401)
              ),
              as: other,
            },
          ],
        }
      },
    },
  ])

  test('assignRoles queries: the same for a super admin and anyone else, whatever the number of roles', async ({
    client,
    assert,
  }) => {
    const { user } = await userWithPermissions([P.user.assignRoles, P.user.list])
    const admin = await seededAdmin()
    const weak = await Promise.all([1, 2, 3].map(() => roleWithPermissions([P.user.list])))
    const target = await UserFactory.create()
    const assign = async (roleIds: number[], as: User) => {
      await db.from('user_roles').where('user_id', target.id).delete()
      const counted = await countQueries(() =>
        client.put(users(target.id, '/roles')).json({ roleIds }).loginAs(as)
      )
      counted.result.assertStatus(200)
      return counted.queries
    }
    const oneBySuper = await assign([weak[0].id], admin)
    const one = await assign([weak[0].id], user)
    const three = await assign(
      weak.map((role) => role.id),
      user
    )
    assert.equal(one.length, oneBySuper.length, one.join('\n'))
    assert.equal(three.length, one.length)
  })
})

test.group('Authorization: RolePolicy', (group) => {
  isolate(group)

  run([
    {
      name: 'create: only with nodes the caller holds (ancestors come along)',
      arrange: async ({ assert }) => {
        const { user: caller } = await userWithPermissions([P.role.create, P.role.list])
        const [userDelete, roleList] = [await button(P.user.delete), await button(P.role.list)]
        const create = (code: string, menuIds: number[]) =>
          post('/api/admin/roles', { code, name: code, menuIds })
        const menusOf = (code: string, menu: Menu) => async () =>
          assert.deepEqual(
            await menuIdsOf((await Role.findByOrFail('code', code)).id),
            await chainOf(menu)
          )
        return {
          caller,
          refused: [
            no(
              create('deleters', [roleList.id, userDelete.id]),
              `${GRANT}; not held: menu id(s) ${userDelete.parentId}, ${userDelete.id}`
            ),
          ],
          allowed: [
            ok(create('listers', [roleList.id]), 201, menusOf('listers', roleList)),
            su(create('deleters', [userDelete.id]), 201, menusOf('deleters', userDelete)),
          ],
        }
      },
    },
    {
      name: 'update: not a role holding more (rename, disable), nor the status of a role one holds',
      arrange: async ({ assert }) => {
        const { user: caller, role: own } = await userWithPermissions([P.role.update, P.role.list])
        const { user: victim, role: richer } = await userWithPermissions([
          P.role.update,
          P.user.delete,
        ])
        const within = await roleWithPermissions([P.role.list])
        const [root, admin] = [await superRole(), await seededAdmin()]
        const nameOf = (role: Role, name: string) => async () =>
          assert.equal((await Role.findOrFail(role.id)).name, name)
        return {
          caller,
          watch: [victim, admin],
          refused: [
            no(put(roles(richer.id), { status: 'disabled' }), TARGET),
            no(put(roles(richer.id), { name: 'Renamed' }), TARGET),
            no(put(roles(own.id), { status: 'disabled' }), OWN_ROLE),
            no(put(roles(root.id), { name: 'Owners' }), SUPER, await ordinaryAdmin()),
          ],
          allowed: [
            ok(put(roles(own.id), { name: 'Mine' }), 200, nameOf(own, 'Mine')),
            ok(put(roles(within.id), { status: 'disabled' }), 200, async () =>
              assert.equal((await Role.findOrFail(within.id)).status, 'disabled')
            ),
            su(put(roles(richer.id), { name: 'Renamed' }), 200, nameOf(richer, 'Renamed')),
          ],
        }
      },
    },
    {
      name: 'delete: not a role holding more',
      arrange: async ({ assert }) => {
        const { user: caller } = await userWithPermissions([P.role.delete])
        const { user: victim, role: richer } = await userWithPermissions([P.user.delete])
        const within = await RoleFactory.create()
        return {
          caller,
          watch: [victim],
          refused: [no(del(roles(richer.id)), TARGET)],
          allowed: [
            ok(del(roles(within.id)), 204, async () => assert.isNull(await Role.find(within.id))),
          ],
        }
      },
    },
    {
      name: 'assignMenus: only held nodes, on a role holding no more (before and after)',
      arrange: async ({ client, assert }) => {
        const { user: caller, role: own } = await userWithPermissions([
          P.role.assignMenus,
          P.role.list,
        ])
        const [userDelete, roleList] = [await button(P.user.delete), await button(P.role.list)]
        const [other, within] = [
          await RoleFactory.create(),
          await roleWithPermissions([P.role.list]),
        ]
        const richer = await roleWithPermissions([P.user.delete, P.role.list])
        const holder = await UserFactory.create()
        await holder.related('roles').attach([other.id])
        const [ownMenus, richerMenus] = [await menuIdsOf(own.id), await menuIdsOf(richer.id)]
        const assign = (role: Role, menuIds: number[]) => put(roles(role.id, '/menus'), { menuIds })
        const menusAre = (role: Role, ids: () => Promise<number[]>) => async () =>
          assert.deepEqual(await menuIdsOf(role.id), await ids())
        return {
          caller,
          watch: [holder],
          refused: [
            // The button and the Users page (an ancestor added for it, not held either) are named.
            no(
              assign(own, [...ownMenus, userDelete.id]),
              `${GRANT}; not held: menu id(s) ${userDelete.parentId}, ${userDelete.id}`
            ),
            no(assign(other, [userDelete.id]), GRANT),
            no(assign(other, [userDelete.parentId!]), `menu id(s) ${userDelete.parentId}`),
            ...[richerMenus, [roleList.id], []].map((ids) => no(assign(richer, ids), TARGET)),
          ],
          allowed: [
            ok(assign(other, [roleList.id]), 200, async (r) => {
              assert.deepEqual(sorted(r.body().data.menuIds), await chainOf(roleList))
              await menusAre(other, () => chainOf(roleList))()
              // Its holder may use it on the very next request.
              ;(await client.get('/api/admin/roles').loginAs(holder)).assertStatus(200)
            }),
            ok(
              assign(within, []),
              200,
              menusAre(within, async () => [])
            ),
            ok(
              assign(within, [roleList.id]),
              200,
              menusAre(within, () => chainOf(roleList))
            ),
            su(assign(own, [...ownMenus, userDelete.id]), 200, async () =>
              assert.includeMembers(await menuIdsOf(own.id), await chainOf(userDelete))
            ),
          ],
        }
      },
    },
  ])

  test('assignMenus queries: none added for the check, only the difference written', async ({
    client,
    assert,
  }) => {
    const codes = [P.role.assignMenus, P.role.list, P.role.create, P.role.update, P.role.delete]
    const { user } = await userWithPermissions(codes)
    const [admin, other] = [await seededAdmin(), await RoleFactory.create()]
    const one = [(await button(P.role.list)).id]
    const five = await Promise.all(codes.map(async (code) => (await button(code)).id))
    const assign = async (menuIds: number[], as: User, fresh = true) => {
      if (fresh) await db.from('role_menus').where('role_id', other.id).delete()
      const counted = await countQueries(() =>
        client.put(roles(other.id, '/menus')).json({ menuIds }).loginAs(as)
      )
      counted.result.assertStatus(200)
      return counted.queries
    }
    const [grantOne, grantFive, bySuper] = [
      await assign(one, user),
      await assign(five, user),
      await assign(five, admin),
    ]
    assert.equal(grantFive.length, grantOne.length, grantFive.join('\n'))
    assert.equal(bySuper.length, grantFive.length)
    // Re-saving the same set grants nothing and writes nothing.
    const resave = await assign(five, user, false)
    assert.isAtMost(resave.length, grantFive.length - 1)
    assert.notMatch(resave.join('\n'), /(insert into|delete from) ["`]?role_menus/i)
  })
})

test.group('Authorization: MenuPolicy', (group) => {
  isolate(group)

  run([
    {
      name: 'create: only under a held parent, with a held permission code',
      arrange: async ({ assert }) => {
        const { user: caller } = await userWithPermissions([P.menu.create])
        const menusPage = await Menu.findOrFail((await button(P.menu.create)).parentId!)
        const content = await Menu.findByOrFail('name', 'Content')
        const create = (body: object) => post('/api/admin/menus', body)
        const page = (parentId: number | null) => ({
          type: 'menu',
          name: 'Stats',
          path: 'stats',
          component: 'stats/index',
          parentId,
        })
        const permission = 'system:menu:export'
        return {
          caller,
          refused: [
            no(
              create({ type: 'button', name: 'Export', parentId: menusPage.id, permission }),
              CODE
            ),
            no(create(page(content.id)), `${GRANT}; not held: menu id(s) ${content.id}`),
          ],
          allowed: [
            ok(create(page(menusPage.parentId)), 201, (r) =>
              assert.equal(r.body().data.parentId, menusPage.parentId)
            ),
          ],
        }
      },
    },
    {
      name: 'update: a node held with its subtree, re-coded only to a held code, moved under a held parent',
      arrange: async ({ assert }) => {
        const { user: caller, role } = await userWithPermissions([P.menu.update])
        const { user: holder } = await userWithPermissions([P.user.resetPassword, P.user.delete])
        const [reset, own, userDelete] = [
          await button(P.user.resetPassword),
          await button(P.menu.update),
          await button(P.user.delete),
        ]
        const system = (await Menu.findOrFail(userDelete.parentId!)).parentId!
        const content = await Menu.findByOrFail('name', 'Content')
        // A root directory the caller holds.
        const held = await MenuFactory.create()
        await role.related('menus').attach([held.id])
        const stored = (id: number) => Menu.findOrFail(id)
        return {
          caller,
          watch: [holder],
          refused: [
            // The two-step re-code: moving a code away from its button, then onto one's own.
            no(put(menus(reset.id), { permission: 'system:user:reset-pass' }), TARGET),
            no(put(menus(own.id), { permission: P.user.resetPassword }), CODE),
            no(put(menus(userDelete.id), { status: 'disabled' }), TARGET),
            no(put(menus(system), { status: 'disabled' }), TARGET),
            no(put(menus(held.id), { parentId: content.id }), GRANT),
          ],
          allowed: [
            ok(put(menus(held.id), { name: 'Mine' }), 200, async () =>
              assert.equal((await stored(held.id)).name, 'Mine')
            ),
            su(put(menus(reset.id), { permission: 'system:user:archive' }), 200, async () =>
              assert.equal((await stored(reset.id)).permission, 'system:user:archive')
            ),
          ],
        }
      },
    },
    {
      name: 'delete: only a node held with its subtree',
      arrange: async ({ assert }) => {
        const { user: caller, role } = await userWithPermissions([P.menu.delete])
        const held = await MenuFactory.create()
        await role.related('menus').attach([held.id])
        return {
          caller,
          refused: [no(del(menus((await button(P.user.delete)).id)), TARGET)],
          allowed: [
            ok(del(menus(held.id)), 204, async () => assert.isNull(await Menu.find(held.id))),
          ],
        }
      },
    },
  ])
})

test.group('Authorization: ArticlePolicy', (group) => {
  isolate(group)

  run([
    {
      name: 'update and delete: a published or scheduled article needs the publish code; a draft does not',
      arrange: async ({ assert }) => {
        const { user: caller } = await userWithPermissions([P.article.update])
        const { user: remover } = await userWithPermissions([P.article.delete])
        const published = await ArticleFactory.create()
        const scheduled = await ArticleFactory.apply('scheduled').create()
        const [draft, other] = await ArticleFactory.apply('draft').createMany(2)
        const gone = (article: Article) => async () => assert.isNull(await Article.find(article.id))
        return {
          caller,
          refused: [published, scheduled].flatMap((live) => [
            no(put(articles(live.id), { title: 'Defaced' }), PUBLISH),
            no(del(articles(live.id)), PUBLISH, remover),
          ]),
          allowed: [
            ok(put(articles(draft.id), { title: 'Fixed typo' }), 200, async () =>
              assert.equal((await Article.findOrFail(draft.id)).title, 'Fixed typo')
            ),
            { ...ok(del(articles(other.id)), 204, gone(other)), as: remover },
            { ...ok(del(articles(published.id)), 204, gone(published)), as: await seededAdmin() },
          ],
        }
      },
    },
  ])
})

test.group('Authorization: stored grants count, disabled ones are not held', (group) => {
  isolate(group)

  run([
    {
      name: 'a disabled role carrying more (one’s own, or an accomplice’s) is not re-enabled',
      arrange: async ({ client, assert }) => {
        const { user: caller } = await userWithPermissions([P.role.update, P.role.list])
        const codes = [P.role.update, P.role.list, P.user.list, P.user.delete, P.menu.list]
        const seven = await roleWithPermissions(codes, { status: 'disabled' })
        await caller.related('roles').attach([seven.id])
        const accomplice = await UserFactory.create()
        const theirs = await roleWithPermissions([P.role.list, P.user.delete], {
          status: 'disabled',
        })
        await accomplice.related('roles').attach([theirs.id])
        const [me] = await permissionsOf(client, [caller])
        assert.lengthOf(me, 2)
        const enable = (role: Role) => put(roles(role.id), { status: 'enabled' })
        return {
          caller,
          watch: [accomplice],
          refused: [seven, theirs].map((role) => no(enable(role), TARGET)),
          allowed: [
            su(enable(theirs), 200, async () =>
              assert.equal((await Role.findOrFail(theirs.id)).status, 'enabled')
            ),
          ],
        }
      },
    },
    {
      name: 'a disabled role is judged by what it would grant once re-enabled',
      arrange: async () => {
        const { user: caller } = await userWithPermissions([P.user.assignRoles, P.user.list])
        const dormant = await roleWithPermissions([P.user.delete], { status: 'disabled' })
        const target = await UserFactory.create()
        return {
          caller,
          refused: [
            no(
              put(users(target.id, '/roles'), { roleIds: [dormant.id] }),
              `refused: role id(s) ${dormant.id}`
            ),
          ],
        }
      },
    },
    {
      name: 'a disabled node is not held, even where the caller’s role has it',
      arrange: async () => {
        const { user: caller } = await userWithPermissions([P.role.assignMenus, P.article.publish])
        const publish = await button(P.article.publish)
        await Menu.query().where('id', publish.id).update({ status: 'disabled' })
        const other = await RoleFactory.create()
        return {
          caller,
          refused: [
            no(
              put(roles(other.id, '/menus'), { menuIds: [publish.id] }),
              `menu id(s) ${publish.id}`
            ),
          ],
        }
      },
    },
    {
      name: 'a button or a directory a super admin disabled is not re-enabled by its holder',
      arrange: async ({ client, assert }) => {
        const codes = [P.menu.update, P.article.publish, P.user.list]
        const { user: caller } = await userWithPermissions(codes)
        const publish = await button(P.article.publish)
        const content = (await Menu.findOrFail(publish.parentId!)).parentId!
        const admin = await seededAdmin()
        for (const id of [publish.id, content]) {
          ;(await client.put(menus(id)).json({ status: 'disabled' }).loginAs(admin)).assertStatus(
            200
          )
        }
        assert.deepEqual(await permissionsOf(client, [caller]), [
          [P.menu.update, P.user.list].sort(),
        ])
        const enable = (id: number) => put(menus(id), { status: 'enabled' })
        return {
          caller,
          refused: [publish.id, content].map((id) => no(enable(id), TARGET)),
          allowed: [content, publish.id].map((id) =>
            su(enable(id), 200, async () =>
              assert.equal((await Menu.findOrFail(id)).status, 'enabled')
            )
          ),
        }
      },
    },
    {
      name: 'adding a held ancestor cannot make a kept, unheld node start to count',
      arrange: async () => {
        // Holds the Users page (through user:list) but not user:delete.
        const { user: caller } = await userWithPermissions([P.role.assignMenus, P.user.list])
        const userDelete = await button(P.user.delete)
        const usersPage = await Menu.findOrFail(userDelete.parentId!)
        // Hand-edited data: the button is stored without its page, so it grants nothing yet.
        const other = await RoleFactory.create()
        await other.related('menus').attach([usersPage.parentId!, userDelete.id])
        return {
          caller,
          refused: [
            no(
              put(roles(other.id, '/menus'), { menuIds: [userDelete.id] }),
              `menu id(s) ${userDelete.id}`
            ),
          ],
        }
      },
    },
  ])
})

test.group('Authorization: super-admin protections and self-lockout', (group) => {
  isolate(group)

  const systemRoleRefusals = (root: Role, menuId: number) => [
    no(del(roles(root.id)), 'A system role cannot be deleted'),
    no(put(roles(root.id), { status: 'disabled' }), 'cannot be disabled'),
    no(put(roles(root.id), { code: 'root' }), 'cannot be re-coded'),
    no(put(roles(root.id, '/menus'), { menuIds: [menuId] }), 'cannot be changed'),
  ]
  const firstMenu = async () => Number((await db.from('menus').select('id').firstOrFail()).id)

  run([
    {
      name: 'the super_admin role is never deleted, disabled, re-coded or given menus: by an ordinary administrator',
      arrange: async () => {
        const [admin, root] = [await seededAdmin(), await superRole()]
        return {
          caller: await ordinaryAdmin(),
          watch: [admin],
          refused: systemRoleRefusals(root, await firstMenu()),
        }
      },
    },
    {
      name: 'the super_admin role is never deleted, disabled, re-coded or given menus: by a super administrator, who may rename it',
      arrange: async ({ client, assert }) => {
        const [admin, root] = [await seededAdmin(), await superRole()]
        return {
          caller: admin,
          refused: systemRoleRefusals(root, await firstMenu()),
          allowed: [
            ok(
              put(roles(root.id), { name: 'Owners', status: 'enabled', code: 'super_admin' }),
              200,
              (r) =>
                assert.containSubset(r.body().data, {
                  name: 'Owners',
                  code: 'super_admin',
                  status: 'enabled',
                  isSystem: true,
                })
            ),
            // isSystem is no field of a role's body: refused, and nothing changes.
            ok(put(roles(root.id), { isSystem: false }), 422, async () => {
              assert.isTrue((await superRole()).isSystem)
              ;(await client.delete(roles(root.id)).loginAs(admin)).assertStatus(403)
            }),
            ok(
              post('/api/admin/roles', {
                code: 'sneaky',
                name: 'Sneaky',
                isSystem: true,
                is_system: true,
              }),
              422,
              async (r) => {
                assert.sameMembers(
                  r.body().errors.map((error: { field: string }) => error.field),
                  ['isSystem', 'is_system']
                )
                assert.isNull(await Role.findBy('code', 'sneaky'))
              }
            ),
          ],
        }
      },
    },
    {
      name: 'the last enabled super administrator is not disabled, deleted or stripped of the role',
      arrange: async () => {
        const admin = await seededAdmin()
        const plain = await RoleFactory.create()
        return {
          caller: admin,
          refused: [
            put(users(admin.id), { status: 'disabled' }),
            del(users(admin.id)),
            put(users(admin.id, '/roles'), { roleIds: [plain.id] }),
          ].map((send) => ({ send, refusal: LAST_SUPER })),
        }
      },
    },
    {
      name: 'a disabled super admin does not count as another one (and may be deleted)',
      arrange: async ({ client, assert }) => {
        const [admin, other] = [await seededAdmin(), await superAdminUser()]
        // Two enabled super admins: one may disable the other.
        ;(
          await client.put(users(other.id)).json({ status: 'disabled' }).loginAs(admin)
        ).assertStatus(200)
        return {
          caller: admin,
          refused: [no(put(users(admin.id, '/roles'), { roleIds: [] }), LAST_SUPER)],
          allowed: [
            ok(del(users(other.id)), 204, async () => assert.isNull(await User.find(other.id))),
          ],
        }
      },
    },
    {
      name: 'nobody disables, deletes, re-roles or resets the password of their own account',
      arrange: async ({ assert }) => {
        const { user: caller, role } = await userWithPermissions([
          P.user.delete,
          P.user.update,
          P.user.assignRoles,
          P.user.resetPassword,
        ])
        const extra = await RoleFactory.create()
        return {
          caller,
          refused: [
            no(del(users(caller.id)), 'You cannot delete your own account'),
            no(
              put(users(caller.id), { status: 'disabled' }),
              'You cannot disable your own account'
            ),
            no(
              put(users(caller.id, '/roles'), { roleIds: [role.id, extra.id] }),
              'You cannot change your own roles'
            ),
            // Without the current password: PUT /api/auth/password asks for it.
            no(
              post(users(caller.id, '/password-reset'), PASSWORD),
              'Change your own password with PUT /api/auth/password'
            ),
          ],
          allowed: [
            ok(put(users(caller.id), { nickname: 'Me' }), 200, async () =>
              assert.equal((await User.findOrFail(caller.id)).status, 'enabled')
            ),
          ],
        }
      },
    },
    {
      name: 'with a second enabled super admin, a super admin still cannot re-role or delete their own account',
      arrange: async () => {
        const admin = await seededAdmin()
        await superAdminUser()
        return {
          caller: admin,
          refused: [
            no(put(users(admin.id, '/roles'), { roleIds: [] }), 'own roles'),
            no(del(users(admin.id)), 'own account'),
          ],
        }
      },
    },
  ])
})

test.group('Authorization: races', (group) => {
  withRealCommits(group)

  test('two super admins disabling each other at once: one wins, one enabled super admin remains', async ({
    client,
    assert,
  }) => {
    for (let round = 0; round < 5; round++) {
      await resetDatabase()
      const [first, second] = [await seededAdmin(), await superAdminUser()]
      const responses = await Promise.all([
        client.put(users(second.id)).json({ status: 'disabled' }).loginAs(first),
        client.put(users(first.id)).json({ status: 'disabled' }).loginAs(second),
      ])
      const statuses = responses.map((response) => response.status()).sort()
      assert.equal(statuses.filter((status) => status === 200).length, 1, `round ${round}`)
      // The loser is refused: 403 (last super admin) or 401 (its own account was disabled first).
      assert.oneOf(
        statuses.find((status) => status !== 200),
        [401, 403]
      )
      const enabled = await User.query()
        .where('status', 'enabled')
        .whereHas('roles', (query) => query.where('code', 'super_admin'))
      assert.lengthOf(enabled, 1, `round ${round}`)
    }
  })
})

/**
 * hasPermission end to end: the procedure for verifying a new role (docs/admin-modules.md,
 * "Verifying a new role"), through HTTP only and a real captcha login.
 */
test.group('Authorization: a new role, verified end to end', (group) => {
  // Logs in through the limiter, whose store has its own connection: real commits.
  withRealCommits(group)

  test('a role with the Articles page and its list/create buttons grants exactly that', async ({
    client,
    assert,
  }) => {
    const admin = await seededAdmin()
    const page = await Menu.findByOrFail('name', 'Articles')
    const [list, create] = [await button(P.article.list), await button(P.article.create)]
    const asAdmin = (request: ApiRequest) => request.loginAs(admin)

    // 1. The role, with only the target menus and some action permissions.
    const role = await asAdmin(
      client.post('/api/admin/roles').json({ code: 'content_writer', name: 'Content writer' })
    )
    role.assertStatus(201)
    const roleId = role.body().data.id
    const menuIds = [page.parentId, page.id, list.id, create.id]
    ;(await asAdmin(client.put(roles(roleId, '/menus')).json({ menuIds }))).assertStatus(200)

    // 2. A non-super-admin account holding it.
    const account = { account: 'writer.one', nickname: 'Writer', password: 'Writer-Passw0rd-1' }
    const created = await asAdmin(client.post('/api/admin/users').json(account))
    created.assertStatus(201)
    const userId = created.body().data.id
    const assign = client.put(users(userId, '/roles')).json({ roleIds: [roleId] })
    ;(await asAdmin(assign)).assertStatus(200)
    assert.deepEqual(await roleIdsOf(userId), [roleId])

    // 3. Log in as it, through the real captcha flow.
    const captcha = await newCaptcha(client)
    captcha.assertStatus(200)
    const challenge = captcha.body().data
    const verify = await client
      .post('/api/auth/captcha/verify')
      .json(await rightVerify(challenge, await challengeAnswer(challenge.captchaId)))
    verify.assertStatus(200)
    const login = await client.post('/api/auth/login').json({
      account: account.account,
      password: account.password,
      captchaToken: verify.body().data.captchaToken,
    })
    login.assertStatus(200)
    // The administrator chose the password: the account's first step is to change it.
    const changed = await client
      .put('/api/auth/password')
      .bearerToken(login.body().data.token)
      .json({ currentPassword: account.password, newPassword: 'Writer-Own-Passphrase-2' })
    changed.assertStatus(200)
    const token = changed.body().data.token

    // 4. /me shows exactly those menus and codes (what the frontend shows and hides).
    const me = await meWith(client, token)
    me.assertStatus(200)
    const { data } = me.body()
    assert.deepEqual(data.roles, [
      { id: roleId, code: 'content_writer', name: 'Content writer', status: 'enabled' },
    ])
    type Node = { name: string; children: Node[] }
    assert.deepEqual(
      data.menus.map((node: Node) => ({
        name: node.name,
        children: node.children.map((child) => ({ name: child.name, children: child.children })),
      })),
      [{ name: 'Content', children: [{ name: 'Articles', children: [] }] }]
    )
    assert.deepEqual(data.permissions, [P.article.create, P.article.list].sort())

    // 5. Inside the role: allowed.
    ;(await client.get('/api/admin/articles').bearerToken(token)).assertStatus(200)
    const article = await client
      .post('/api/admin/articles')
      .bearerToken(token)
      .json({ title: 'Written by the writer', content: 'Body', category: 'news' })
    article.assertStatus(201)

    // 6. Outside it, called directly: 403, and nothing changes.
    const articleId = article.body().data.id
    const tables = await rbacTables()
    const outside = [
      post(`/api/admin/articles/${articleId}/publish`),
      del(articles(articleId)),
      (c: ApiClient) => c.get('/api/admin/users'),
      put(roles(roleId, '/menus'), { menuIds: [list.id] }),
      post('/api/admin/users', { account: 'sneaky', password: 'Quiet-Harbor-Passw0rd-1' }),
    ]
    for (const send of outside) assertForbidden(assert, await send(client).bearerToken(token))
    assert.deepEqual(await rbacTables(), tables)
    assert.equal((await Article.findOrFail(articleId)).status, 'draft')
    assert.lengthOf(await menuIdsOf(roleId), 4)
  })
})
