import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { isolate } from '#tests/helpers/database'
import { UserFactory } from '#database/factories/user_factory'
import { seededAdmin } from '#tests/helpers/rbac'

/*
| The users list reads `timestamptz` columns as PostgreSQL's text and cuts the ISO text from it
| when it is in UTC (app/services/admin/user_list.ts); any other text goes through pg's own
| parser. Either way a row reads byte for byte as the account alone (the model, through luxon).
*/
test.group('Users list dates on PostgreSQL', (group) => {
  isolate(group)

  for (const zone of ['UTC', 'Asia/Kolkata', 'America/St_Johns']) {
    test(`microseconds and the session time zone ${zone}`, async ({ client, assert }) => {
      const admin = await seededAdmin()
      const account = await UserFactory.merge({ account: 'dated.micro' }).create()
      // Microseconds (pg's Date keeps milliseconds: .089999 reads .089), years before 1000 and
      // after 9999 (luxon writes those its own way: the model's path).
      await db.from('users').where('id', account.id).update({
        last_login_at: '2026-03-04 05:06:07.089999+00',
        two_factor_confirmed_at: '0999-12-31 23:59:59.5+00',
        email_verified_at: '2026-03-04 05:06:07+00',
      })
      // The global transaction's session: the request reads through it.
      await db.rawQuery(`SET LOCAL TIME ZONE '${zone}'`)
      const list = await client
        .get('/api/admin/users')
        .qs({ keyword: 'dated.micro' })
        .loginAs(admin)
      list.assertStatus(200)
      const [row] = list.body().data
      const alone = await client.get(`/api/admin/users/${account.id}`).loginAs(admin)
      assert.equal(JSON.stringify(row), JSON.stringify(alone.body().data))
      assert.equal(row.lastLoginAt, '2026-03-04T05:06:07.089Z')
    })
  }
})
