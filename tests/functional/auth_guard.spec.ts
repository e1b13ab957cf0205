import { test } from '@japa/runner'
import { SignJWT, generateKeyPair } from 'jose'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import User from '#models/user'
import Role from '#models/role'
import Menu from '#models/menu'
import { ALL_PERMISSION_CODES, PERMISSIONS } from '#auth/permissions'
import { isolate } from '#tests/helpers/database'
import {
  ADMIN_ACCOUNT,
  countQueries,
  createAdmin,
  forgeToken,
  freshCredential,
  sessionToken,
} from '#tests/helpers/auth'

const now = () => Math.floor(Date.now() / 1000)
const issuer = env.get('JWT_ISSUER', 'adonis-rbac')
const audience = env.get('JWT_AUDIENCE', 'adonis-rbac-admin')
const UNAUTHORIZED = 'E_UNAUTHORIZED'

/**
 * The session the forged tokens name (`jti`): a real one of the row's victim, set before each row,
 * so that a forged token is refused only for what its row changes (the pass test below).
 */
let victimSession = ''
/** The claims of a valid token for `user`, with some changed (`undefined`: left out). */
const claims = (user: User | { id: string }, changes: Record<string, unknown> = {}) =>
  Object.fromEntries(
    Object.entries({
      sub: String(user.id),
      tokenVersion: 0,
      jti: victimSession,
      iat: now(),
      exp: now() + 600,
      iss: issuer,
      aud: audience,
      ...changes,
    }).filter(([, value]) => value !== undefined)
  )
const forged = async (body: Record<string, unknown>, options?: { secret: string }) =>
  `Bearer ${await forgeToken(body, options)}`
/** A real session token, then a change to its account. */
const thenChanged = async (user: User, change: () => Promise<unknown>) => {
  const { token } = await sessionToken(user.id, 0)
  await change()
  return `Bearer ${token}`
}
const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')

test.group('JWT guard: attacks on the token', (group) => {
  isolate(group)

  test('{name} -> 401')
    .with([
      { name: 'no Authorization header', header: async () => undefined },
      { name: 'not a Bearer scheme', header: async (_: User) => 'Basic YWRtaW46YWRtaW4=' },
      {
        name: 'alg none',
        header: async (user: User) =>
          `Bearer ${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims(user))}.`,
      },
      {
        name: 'RS256 header signed with an attacker key',
        header: async (user: User) => {
          const { privateKey } = await generateKeyPair('RS256')
          const token = await new SignJWT({ tokenVersion: 0 })
            .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
            .setSubject(String(user.id))
            .setIssuer(issuer)
            .setAudience(audience)
            .setIssuedAt()
            .setExpirationTime('10m')
            .sign(privateKey)
          return `Bearer ${token}`
        },
      },
      {
        name: 'tampered payload (sub changed after signing)',
        header: async (user: User) => {
          const { token } = await sessionToken(user.id, 0)
          const [head, , signature] = token.split('.')
          return `Bearer ${head}.${base64url(claims(user))}.${signature}`
        },
      },
      {
        name: 'wrong secret',
        header: (user: User) =>
          forged(claims(user), { secret: 'another-secret-that-is-long-enough-0123456789' }),
      },
      {
        // Signed with the right secret, but not with the header tokens are signed with here.
        name: 'a header this service never signs with (a kid added)',
        header: async (user: User) =>
          `Bearer ${await forgeToken(claims(user), { header: { kid: 'k1' } })}`,
      },
      { name: 'missing exp', header: (user: User) => forged(claims(user, { exp: undefined })) },
      { name: 'missing iat', header: (user: User) => forged(claims(user, { iat: undefined })) },
      {
        name: 'expired',
        header: (user: User) => forged(claims(user, { iat: now() - 7200, exp: now() - 60 })),
      },
      {
        name: 'issued in the future',
        header: (user: User) => forged(claims(user, { iat: now() + 3600, exp: now() + 7200 })),
      },
      {
        name: 'older than the token lifetime, with a far exp',
        header: (user: User) =>
          forged(claims(user, { iat: now() - 3 * 86400, exp: now() + 365 * 86400 })),
      },
      {
        name: 'sub beyond the 32-bit id range',
        header: async () => forged(claims({ id: '2147483648' })),
      },
      { name: 'wrong issuer', header: (user: User) => forged(claims(user, { iss: 'evil' })) },
      {
        name: 'wrong audience',
        header: (user: User) => forged(claims(user, { aud: 'other-app' })),
      },
      {
        name: 'missing tokenVersion',
        header: (user: User) => forged(claims(user, { tokenVersion: undefined })),
      },
      {
        name: 'stale tokenVersion',
        header: (user: User) =>
          thenChanged(user, () => User.query().where('id', user.id).increment('token_version', 1)),
      },
      {
        name: 'disabled user',
        header: (user: User) =>
          thenChanged(user, () => User.query().where('id', user.id).update({ status: 'disabled' })),
      },
      {
        name: 'deleted user',
        header: (user: User) => thenChanged(user, () => User.query().where('id', user.id).delete()),
      },
      {
        name: 'the captcha credential presented as a bearer token',
        header: async () => `Bearer ${await freshCredential()}`,
      },
      {
        name: 'oversized header',
        header: async (user: User) => {
          const { token } = await sessionToken(user.id, 0)
          return `Bearer ${token}${'A'.repeat(5000)}`
        },
      },
    ])
    .run(async ({ client, assert }, row) => {
      const user = await createAdmin('victim', { roles: ['super_admin'] })
      victimSession = (await sessionToken(user.id, 0)).sessionId
      const header = await row.header(user)
      const request = client.get('/api/auth/me')
      if (header) request.header('authorization', header)
      const response = await request
      response.assertStatus(401)
      assert.equal(response.body().errors[0].code, UNAUTHORIZED)
      assert.lengthOf(response.body().errors, 1)
    })

  test('a token forged with the right secret, header and claims passes (the refusals above are for their own change)', async ({
    client,
  }) => {
    const user = await createAdmin('victim', { roles: ['super_admin'] })
    victimSession = (await sessionToken(user.id, 0)).sessionId
    const response = await client
      .get('/api/auth/me')
      .header('authorization', await forged(claims(user)))
    response.assertStatus(200)
  })

  test('a valid token for an enabled user with the current tokenVersion passes', async ({
    client,
  }) => {
    const user = await createAdmin('victim', { roles: ['super_admin'] })
    const { token } = await sessionToken(user.id, 0)
    const response = await client.get('/api/auth/me').bearerToken(token)
    response.assertStatus(200)
  })
})

test.group('JWT guard: every request re-reads the database', (group) => {
  isolate(group)

  test('disabling a user, removing a role or a menu takes effect on the next request', async ({
    client,
    assert,
  }) => {
    const editor = await Role.create({
      code: 'editor',
      name: 'Editor',
      status: 'enabled',
      isSystem: false,
      sort: 1,
    })
    const articles = await Menu.findByOrFail('name', 'Articles')
    const content = await Menu.findOrFail(articles.parentId!)
    const publish = await Menu.findByOrFail('permission', PERMISSIONS.article.publish)
    await editor.related('menus').attach([content.id, articles.id, publish.id])
    const user = await createAdmin('editor.one', { roles: ['editor'] })
    const { token } = await sessionToken(user.id, 0)

    const codes = async () => {
      const response = await client.get('/api/auth/me').bearerToken(token)
      return { status: response.status(), body: response.body() }
    }
    assert.deepEqual((await codes()).body.data.permissions, [PERMISSIONS.article.publish])

    // Remove the button from the role.
    await db.from('role_menus').where({ role_id: editor.id, menu_id: publish.id }).delete()
    assert.deepEqual((await codes()).body.data.permissions, [])

    // Give it back, then disable the parent menu: nothing under it counts any more.
    await editor.related('menus').attach([publish.id])
    assert.deepEqual((await codes()).body.data.permissions, [PERMISSIONS.article.publish])
    await Menu.query().where('id', articles.id).update({ status: 'disabled' })
    const afterMenu = (await codes()).body.data
    assert.deepEqual(afterMenu.permissions, [])
    assert.deepEqual(
      afterMenu.menus.map((m: { name: string }) => m.name),
      ['Content']
    )
    await Menu.query().where('id', articles.id).update({ status: 'enabled' })

    // Disable the role: still listed with its status, grants nothing.
    await Role.query().where('id', editor.id).update({ status: 'disabled' })
    const afterRole = (await codes()).body.data
    assert.deepEqual(afterRole.roles, [
      { id: editor.id, code: 'editor', name: 'Editor', status: 'disabled' },
    ])
    assert.deepEqual(afterRole.permissions, [])
    assert.deepEqual(afterRole.menus, [])

    // Unassign the role entirely.
    await Role.query().where('id', editor.id).update({ status: 'enabled' })
    await db.from('user_roles').where({ user_id: user.id }).delete()
    assert.deepEqual((await codes()).body.data.roles, [])

    // Disable the user: the same token is now refused.
    await User.query().where('id', user.id).update({ status: 'disabled' })
    assert.equal((await codes()).status, 401)
  })

  test('/me returns the profile, what is pending, every role with its status, the sidebar tree without buttons, and the codes', async ({
    client,
    assert,
  }) => {
    const admin = await User.findByOrFail('account', ADMIN_ACCOUNT)
    const response = await client.get('/api/auth/me').loginAs(admin)
    response.assertStatus(200)
    const { data } = response.body()
    assert.sameMembers(Object.keys(data), [
      'user',
      'pendingRequirement',
      'roles',
      'menus',
      'permissions',
    ])
    // The seeded administrator's forced change is done in the test baseline (nothing pending).
    assert.isNull(data.pendingRequirement)
    assert.sameMembers(Object.keys(data.user), [
      'id',
      'account',
      'nickname',
      'email',
      'status',
      'lastLoginAt',
      'twoFactorEnabled',
      'createdAt',
      'passwordChangeRequired',
      'passwordExpiresAt',
      'avatarUrl',
      'lastSignIn',
      'failedSinceLastSignIn',
      'emailVerified',
    ])
    assert.notProperty(data.user, 'password')
    assert.notProperty(data.user, 'tokenVersion')
    assert.deepEqual(
      data.roles.map((r: { code: string }) => r.code),
      ['super_admin']
    )
    assert.deepEqual(data.permissions, [...ALL_PERMISSION_CODES].sort())
    assert.deepEqual(
      data.menus.map((m: { name: string }) => m.name),
      ['System', 'Content', 'Monitor']
    )
    assert.deepEqual(
      data.menus[0].children.map((m: { name: string }) => m.name),
      ['Users', 'Roles', 'Menus', 'Departments', 'Dictionaries', 'Parameters', 'Notices']
    )
    const walk = (nodes: { type: string; children: any[] }[]): string[] =>
      nodes.flatMap((node) => [node.type, ...walk(node.children)])
    assert.notInclude(walk(data.menus), 'button')
    assert.equal(response.header('cache-control'), 'no-store')
  })

  test('guard + access snapshot take 2 SQL round trips with 20 roles and 500 menus', async ({
    client,
    assert,
  }) => {
    // 500 menus: 20 directories x (1 page + 23 buttons) + the seeded tree's remainder is not used.
    const roleIds: number[] = []
    const menuRows: number[][] = []
    for (let r = 0; r < 20; r++) {
      const role = await Role.create({
        code: `role_${r}`,
        name: `Role ${r}`,
        status: 'enabled',
        isSystem: false,
        sort: r,
      })
      roleIds.push(role.id)
      const dir = await Menu.create({
        parentId: null,
        type: 'directory',
        name: `Dir ${r}`,
        path: `/d${r}`,
        sort: r,
        visible: true,
        status: 'enabled',
      })
      const page = await Menu.create({
        parentId: dir.id,
        type: 'menu',
        name: `Page ${r}`,
        path: `p${r}`,
        sort: 1,
        visible: true,
        status: 'enabled',
      })
      const buttons = await Menu.createMany(
        Array.from({ length: 23 }, (_, b) => ({
          parentId: page.id,
          type: 'button' as const,
          name: `Button ${r}.${b}`,
          permission: `bench:r${r}:b${b}`,
          sort: b,
          visible: true,
          status: 'enabled' as const,
        }))
      )
      menuRows.push([dir.id, page.id, ...buttons.map((b) => b.id)])
    }
    for (const [index, roleId] of roleIds.entries()) {
      await db
        .table('role_menus')
        .multiInsert(menuRows[index].map((menuId) => ({ role_id: roleId, menu_id: menuId })))
    }
    const user = await createAdmin('many.roles')
    await db
      .table('user_roles')
      .multiInsert(roleIds.map((roleId) => ({ user_id: user.id, role_id: roleId })))
    const { token } = await sessionToken(user.id, 0)

    const { result: response, queries } = await countQueries(() =>
      client.get('/api/auth/me').bearerToken(token)
    )
    response.assertStatus(200)
    assert.lengthOf(response.body().data.permissions, 20 * 23)
    assert.lengthOf(response.body().data.roles, 20)
    assert.isAtMost(queries.length, 2, queries.join('\n'))

    // The same with one role and ten menus.
    const small = await createAdmin('one.role')
    await db.table('user_roles').insert({ user_id: small.id, role_id: roleIds[0] })
    const { token: smallToken } = await sessionToken(small.id, 0)
    const { queries: fewer } = await countQueries(() =>
      client.get('/api/auth/me').bearerToken(smallToken)
    )
    assert.isAtMost(fewer.length, 2)
  })
})
