import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import User from '#models/user'
import { PERMISSIONS } from '#auth/permissions'
import { isolate, withRealCommits } from '#tests/helpers/database'
import { createAdmin, superAdminUser, userWithPermissions } from '#tests/helpers/auth'
import { assertForbidden } from '#tests/helpers/assertions'
import { runAce } from '#tests/helpers/app_process'

const { user: userCodes, role: roleCodes, auditLog } = PERMISSIONS

async function auditRows() {
  return db.from('audit_logs').orderBy('id', 'asc')
}

test.group('Audit log: what a row holds', (group) => {
  isolate(group)

  test('an edit stores the changed fields only, as [before, after]', async ({ client, assert }) => {
    const boss = await superAdminUser()
    const target = await createAdmin('audited.edit')
    const response = await client
      .put(`/api/admin/users/${target.id}`)
      .json({ nickname: 'New name', email: 'new@example.com' })
      .header('x-request-id', 'req-audit-1')
      .loginAs(boss)
    response.assertStatus(200)
    const [row] = await auditRows()
    assert.include(row, {
      actor_id: boss.id,
      actor: boss.account,
      permission: userCodes.update,
      target_type: 'user',
      target_id: String(target.id),
      outcome: 'succeeded',
    })
    assert.deepEqual(JSON.parse(row.changes), {
      nickname: ['audited.edit', 'New name'],
      email: [null, 'new@example.com'],
    })
  })

  test('passwords, digests and tokens are never stored, not even hashed', async ({
    client,
    assert,
  }) => {
    const boss = await superAdminUser()
    const password = 'Created-Passw0rd-77'
    const created = await client
      .post('/api/admin/users')
      .json({ account: 'audited.secret', password })
      .loginAs(boss)
    created.assertStatus(201)
    const reset = 'Reset-Passw0rd-88'
    await client
      .post(`/api/admin/users/${created.body().data.id}/password-reset`)
      .json({ password: reset })
      .loginAs(boss)
      .then((response) => response.assertStatus(200))
    const digest = (await User.findByOrFail('account', 'audited.secret')).password

    const rows = await auditRows()
    assert.lengthOf(rows, 2)
    assert.deepEqual(JSON.parse(rows[1].changes), { password: ['[changed]', '[changed]'] })
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        for (const secret of [password, reset, digest, digest.split('$').pop()!]) {
          assert.notInclude(String(value), secret, `audit_logs.${column}`)
        }
      }
    }
  })

  test('a write refused by the grant rule leaves a refusal row with the reason, and no change', async ({
    client,
    assert,
  }) => {
    // Holds role editing, but not what the super_admin role would give.
    const { user: editor } = await userWithPermissions([userCodes.assignRoles, userCodes.list])
    const victim = await createAdmin('audited.victim')
    const superRole = await db.from('roles').where('code', 'super_admin').firstOrFail()
    const response = await client
      .put(`/api/admin/users/${victim.id}/roles`)
      .json({ roleIds: [superRole.id] })
      .loginAs(editor)
    assertForbidden(assert, response)
    const rows = await auditRows()
    assert.lengthOf(rows, 1)
    assert.include(rows[0], {
      actor_id: editor.id,
      permission: userCodes.assignRoles,
      target_type: 'user',
      target_id: String(victim.id),
      outcome: 'refused',
      reason: response.body().errors[0].message,
    })
    assert.lengthOf(await db.from('user_roles').where('user_id', victim.id), 0)
  })

  test('the audit-log page: filters, and its own code', async ({ client, assert }) => {
    const boss = await superAdminUser()
    const { user: reader } = await userWithPermissions([auditLog.list])
    await client.post('/api/admin/roles').json({ code: 'audited_role', name: 'A' }).loginAs(boss)
    const target = await createAdmin('audited.list')
    await client.put(`/api/admin/users/${target.id}`).json({ nickname: 'x' }).loginAs(boss)

    const all = await client.get('/api/admin/audit-logs').loginAs(reader)
    all.assertStatus(200)
    assert.equal(all.body().meta.total, 2)
    assert.deepEqual(
      all.body().data.map((row: any) => row.permission),
      [userCodes.update, roleCodes.create]
    )
    assert.deepEqual(all.body().data[0].changes, { nickname: ['audited.list', 'x'] })
    const filtered = await client
      .get('/api/admin/audit-logs')
      .qs({ targetType: 'user', targetId: String(target.id), actorId: boss.id })
      .loginAs(reader)
    assert.equal(filtered.body().meta.total, 1)
    assertForbidden(
      assert,
      await client.get('/api/admin/audit-logs').loginAs(await createAdmin('no.audit'))
    )
  })
})

/** The commands are other processes: committed rows. */
test.group('Audit log: account commands', (group) => {
  withRealCommits(group)

  test('user:create, user:reset-password and user:unlock each write one row naming the command', async ({
    assert,
  }) => {
    const run = (...args: string[]) => {
      const result = runAce(args)
      assert.equal(result.status, 0, result.output)
    }
    run('user:create', 'by.command', '--password=Command-Passw0rd-1')
    run('user:reset-password', 'by.command', '--password=Command-Passw0rd-2')
    run('user:unlock', 'by.command')
    const account = await User.findByOrFail('account', 'by.command')
    const rows = await auditRows()
    assert.deepEqual(
      rows.map((row) => [row.actor, row.permission, row.target_id, row.actor_id]),
      [
        ['command:user:create', userCodes.create, String(account.id), null],
        ['command:user:reset-password', userCodes.resetPassword, String(account.id), null],
        ['command:user:unlock', userCodes.unlock, String(account.id), null],
      ]
    )
    for (const row of rows) {
      assert.notInclude(String(row.changes), 'Command-Passw0rd')
      assert.notInclude(String(row.changes), account.password)
    }
  })
})
