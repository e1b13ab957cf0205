import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import env from '#start/env'
import adminAuthConfig from '#config/admin_auth'
import Dept from '#models/dept'
import type User from '#models/user'
import { PERMISSIONS } from '#auth/permissions'
import { countFailure } from '#auth/limits'
import { accountKey } from '#auth/login_limiter'
import { withRealCommits } from '#tests/helpers/database'
import { countQueries } from '#tests/helpers/auth'
import { RoleFactory, roleWithPermissions } from '#database/factories/role_factory'
import { UserFactory } from '#database/factories/user_factory'
import { seededAdmin } from '#tests/helpers/rbac'

/**
 * The users list's reading cost (docs/performance.md): one statement for the page (its accounts'
 * roles included) and one for their lock state, whatever the page size; the total and the role
 * summaries held in memory per version, and read again after any write that changes them, raw
 * SQL included.
 */
const { user: U } = PERMISSIONS

/** Root -> branch -> team, a caller in branch whose role sees it and everything below. */
async function scopedCaller() {
  const root = await Dept.root()
  const branch = await Dept.create({
    name: 'Branch',
    parentId: root.id,
    sort: 0,
    status: 'enabled',
  })
  const team = await Dept.create({ name: 'Team', parentId: branch.id, sort: 0, status: 'enabled' })
  const role = await roleWithPermissions([U.list, U.update], { dataScope: 'dept_and_children' })
  const caller = await UserFactory.merge({ account: 'caller', deptId: branch.id }).create()
  await caller.related('roles').attach([role.id])
  return { root, branch, team, role, caller }
}

/** Blocks an account's 15-minute key (its failures used up). */
async function lock(account: string) {
  const limit = accountKey(account)
  for (let i = 0; i < limit.requests; i++) await countFailure(limit)
}

/** The list's statements of one request (the session row loginAs writes first left out). */
async function listed(client: ApiClient, caller: User, qs: Record<string, unknown>) {
  const request = client.get('/api/admin/users').qs(qs).loginAs(caller)
  const { result, queries } = await countQueries(() => request)
  result.assertStatus(200)
  const statements = queries.filter(
    (sql) => !/admin_sessions/.test(sql) || /access_version/.test(sql)
  )
  return { body: result.body(), statements }
}

test.group('Admin users list: statements and held totals', (group) => {
  withRealCommits(group)

  test('a page of 10 and one of 100 run the same statements; roles and lock state are right', async ({
    client,
    assert,
  }) => {
    const { branch, team, caller } = await scopedCaller()
    const members = await UserFactory.merge({ deptId: team.id }).createMany(120)
    await UserFactory.merge({ deptId: branch.id }).createMany(10)
    const [late, early] = [
      await RoleFactory.merge({ sort: 9 }).create(),
      await RoleFactory.merge({ sort: 1 }).create(),
    ]
    for (const member of members.slice(0, 40)) await member.related('roles').attach([late.id])
    for (const member of members.slice(20, 60)) await member.related('roles').attach([early.id])
    await lock(members[3].account)
    await lock(members[70].account)

    // Warm: the session, the access snapshot, the total and the role summaries.
    await listed(client, caller, { pageSize: 10, sort: 'id' })
    const counts: Record<number, number> = {}
    for (const pageSize of [10, 100]) {
      const { body, statements } = await listed(client, caller, { pageSize, sort: 'id' })
      counts[pageSize] = statements.length
      assert.equal(body.meta.total, 131)
      assert.lengthOf(body.data, pageSize)
      for (const row of body.data.filter((shown: { id: number }) => shown.id !== caller.id)) {
        const i = members.findIndex((member) => member.id === row.id)
        const expected = [
          ...(i >= 20 && i < 60 ? [early] : []),
          ...(i >= 0 && i < 40 ? [late] : []),
        ]
        assert.deepEqual(
          row.roleIds,
          expected.map((role) => role.id),
          row.account
        )
        assert.deepEqual(
          row.roles,
          expected.map(({ id, code, name, status }) => ({ id, code, name, status }))
        )
        assert.equal(row.lockedUntil !== null, i === 3 || i === 70, row.account)
      }
    }
    assert.equal(counts[10], counts[100], `statements at 10 and 100: ${JSON.stringify(counts)}`)
    // The guard's, the page's and the lock state's (in Redis with LIMITER_STORE=redis: no SQL).
    assert.equal(counts[100], env.get('LIMITER_STORE', 'database') === 'redis' ? 2 : 3)

    // A page past the short one and an empty page past the end cost no more.
    const last = await listed(client, caller, { pageSize: 100, pageNum: 2, sort: 'id' })
    assert.lengthOf(last.body.data, 31)
    assert.isAtMost(last.statements.length, counts[100])
  })

  test('the held total and role summaries follow every write that changes them', async ({
    client,
    assert,
  }) => {
    const { branch, team, caller } = await scopedCaller()
    const role = await RoleFactory.create()
    const members = await UserFactory.merge({ deptId: team.id }).createMany(5)
    // The scope of a super admin (all) stays the same whatever the tree and roles hold: its
    // total is held across writes that also change the access version.
    const admin = await seededAdmin()
    // pageSize 1: a full page, so the total is counted or held, never read off the page.
    const total = async (qs: Record<string, unknown> = {}, who: User = caller) => {
      const first = (await listed(client, who, { pageSize: 1, ...qs })).body.meta.total
      // Asked again with nothing changed: the same total, held.
      const again = await listed(client, who, { pageSize: 1, ...qs })
      assert.equal(again.body.meta.total, first)
      assert.notMatch(again.statements.join('\n'), /count\(\*\)/i)
      return first
    }

    // Each total is asked while at least one account matches (a full page: held, not read off
    // the page), then after a write that changes it.
    assert.equal(await total(), 6)
    await UserFactory.merge({ deptId: team.id }).create()
    assert.equal(await total(), 7, 'an account created')
    await members[0].delete()
    assert.equal(await total(), 6, 'an account deleted')
    await db.table('users').insert({
      account: 'raw_sql',
      nickname: 'Raw',
      password: 'x',
      status: 'enabled',
      token_version: 0,
      dept_id: team.id,
      created_at: new Date(),
      updated_at: new Date(),
    })
    assert.equal(await total(), 7, 'an account inserted by raw SQL')

    await members[1].merge({ status: 'disabled' }).save()
    assert.equal(await total({ status: 'disabled' }), 1)
    await members[2].merge({ status: 'disabled' }).save()
    assert.equal(await total({ status: 'disabled' }), 2, 'a status changed')

    await db.from('users').where('id', members[1].id).update({ account: 'renamed_one' })
    assert.equal(await total({ keyword: 'renamed' }), 1)
    await members[2].merge({ nickname: 'Renamed two' }).save()
    assert.equal(await total({ keyword: 'renamed' }), 2, 'a nickname changed')
    await db.from('users').where('id', members[3].id).update({ account: 'renamed_three' })
    assert.equal(await total({ keyword: 'renamed' }), 3, 'an account renamed (raw SQL)')

    await members[1].related('roles').attach([role.id])
    assert.equal(await total({ roleId: role.id }, admin), 1)
    await members[3].related('roles').attach([role.id])
    assert.equal(await total({ roleId: role.id }, admin), 2, 'a role assigned')

    assert.equal(await total({ deptId: team.id }), 6)
    await members[4].merge({ deptId: branch.id }).save()
    assert.equal(await total({ deptId: team.id }), 5, 'an account moved')

    const side = await Dept.create({
      name: 'Side',
      parentId: branch.id,
      sort: 0,
      status: 'enabled',
    })
    await members[4].merge({ deptId: side.id }).save()
    assert.equal(await total({ deptId: side.id }, admin), 1)
    await db.from('depts').where('id', team.id).update({ parent_id: side.id })
    assert.equal(await total({ deptId: side.id }, admin), 6, 'a department moved (raw SQL)')

    // The role summaries: a renamed role reads under its new name.
    const shown = async () =>
      (await listed(client, caller, { pageSize: 100, roleId: role.id })).body.data[0].roles
    assert.deepEqual(
      (await shown()).map((held: { name: string }) => held.name),
      [role.name]
    )
    await role.merge({ name: 'Renamed role' }).save()
    assert.deepEqual(
      (await shown()).map((held: { name: string }) => held.name),
      ['Renamed role']
    )
  })

  test('a row reads byte for byte as the account alone, dates and password expiry included', async ({
    client,
    assert,
  }) => {
    // The rows skip luxon for dates (user_list.ts): the answer about the model is the reference.
    const admin = await seededAdmin()
    const at = DateTime.fromISO('2026-03-04T05:06:07.089Z')
    const since = DateTime.fromISO('2020-01-02T03:04:05.000Z')
    await UserFactory.merge({
      account: 'dated.a',
      lastLoginAt: at,
      twoFactorConfirmedAt: at,
      passwordChangedAt: since,
    }).create()
    await UserFactory.merge({ account: 'dated.b', mustChangePassword: true }).create()
    const before = adminAuthConfig.passwords.maxAgeDays
    try {
      for (const maxAge of [0, 30]) {
        adminAuthConfig.passwords.maxAgeDays = maxAge
        const { body } = await listed(client, admin, { pageSize: 100, keyword: 'dated' })
        assert.lengthOf(body.data, 2)
        for (const row of body.data) {
          const alone = await client.get(`/api/admin/users/${row.id}`).loginAs(admin)
          assert.equal(JSON.stringify(row), JSON.stringify(alone.body().data))
        }
        assert.equal(body.data[0].passwordChangeRequired, maxAge > 0)
      }
    } finally {
      adminAuthConfig.passwords.maxAgeDays = before
    }
  })
})
