import { test } from '@japa/runner'
import sharp from 'sharp'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import User from '#models/user'
import { isolate } from '#tests/helpers/database'
import { TEST_PASSWORD, createAdmin } from '#tests/helpers/auth'
import { OWN_PROFILE } from '#services/audit_log'

/** Issue 26, point 4: the own profile and avatar (docs/architecture.md, "Own profile"). */

/** Real images, drawn by sharp: a photo-like gradient, with EXIF (GPS, a comment) to strip. */
const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#3366aa' } })
    .composite([
      {
        input: Buffer.from(
          `<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#f0c020"/></svg>`
        ),
      },
    ])
    .withExif({
      IFD0: { ImageDescription: 'secret-location', Artist: 'someone' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1' },
    })

const SVG_SCRIPT = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><script>alert(document.domain)</script><rect width="64" height="64"/></svg>`
const SVG_PLAIN = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="red"/></svg>`
/** The first bytes of an ELF executable (what a renamed binary starts with). */
const ELF = Buffer.concat([
  Buffer.from('7f454c46020101000000000000000000', 'hex'),
  Buffer.alloc(4096, 0x90),
])

type Upload = { bytes: () => Promise<Buffer>; filename: string; contentType: string }

const BAD_AVATARS: { name: string; upload: Upload; rule: string }[] = [
  {
    name: 'a renamed executable',
    upload: { bytes: async () => ELF, filename: 'me.png', contentType: 'image/png' },
    rule: 'image',
  },
  {
    name: 'an SVG with a script',
    upload: {
      bytes: async () => Buffer.from(SVG_SCRIPT),
      filename: 'me.svg',
      contentType: 'image/svg+xml',
    },
    rule: 'image',
  },
  {
    name: 'an SVG without a script, named .png',
    upload: {
      bytes: async () => Buffer.from(SVG_PLAIN),
      filename: 'me.png',
      contentType: 'image/png',
    },
    rule: 'image',
  },
  {
    name: 'a 10k x 10k PNG (a decompression bomb: 300 KB on the wire, 300 MB decoded)',
    upload: {
      bytes: () =>
        sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#000' } })
          .png({ compressionLevel: 9 })
          .toBuffer(),
      filename: 'big.png',
      contentType: 'image/png',
    },
    rule: 'dimensions',
  },
  {
    name: '0 bytes',
    upload: { bytes: async () => Buffer.alloc(0), filename: 'empty.png', contentType: 'image/png' },
    rule: 'required',
  },
  {
    name: 'more than 2 MB (a real PNG of noise)',
    upload: {
      bytes: () =>
        sharp({
          create: {
            width: 1000,
            height: 1000,
            channels: 3,
            background: '#000',
            noise: { type: 'gaussian', mean: 128, sigma: 60 },
          },
        })
          .png()
          .toBuffer(),
      filename: 'noise.png',
      contentType: 'image/png',
    },
    rule: 'size',
  },
  {
    name: 'a truncated JPEG',
    upload: {
      bytes: async () => (await photo(300, 200).jpeg().toBuffer()).subarray(0, 600),
      filename: 'cut.jpg',
      contentType: 'image/jpeg',
    },
    rule: 'image',
  },
  {
    name: 'a text file',
    upload: {
      bytes: async () => Buffer.from('hello'),
      filename: 'me.txt',
      contentType: 'text/plain',
    },
    rule: 'image',
  },
]

const stored = async (userId: number) => ({
  avatars: await db
    .from('user_avatars')
    .where('user_id', userId)
    .count('* as n')
    .first()
    .then((r) => Number(r!.n)),
  etag: (await User.findOrFail(userId)).avatarEtag,
  audits: await db
    .from('audit_logs')
    .where('actor_id', userId)
    .count('* as n')
    .first()
    .then((r) => Number(r!.n)),
})

const upload = (
  client: ApiClient,
  user: User,
  file: { bytes: Buffer; filename: string; contentType: string }
) =>
  client
    .put('/api/auth/avatar')
    .loginAs(user)
    .file('avatar', file.bytes, { filename: file.filename, contentType: file.contentType })

test.group('Own profile', (group) => {
  isolate(group)

  test('GET and PUT /api/auth/profile: nickname and email change, with an audit row; nothing else', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('profiled')
    const shown = await client.get('/api/auth/profile').loginAs(user)
    shown.assertStatus(200)
    assert.equal(shown.body().data.account, 'profiled')
    assert.isNull(shown.body().data.avatarUrl)

    // Mass assignment: refused, every key named, nothing written.
    const sneaky = await client.put('/api/auth/profile').loginAs(user).json({
      nickname: 'Sneaky',
      account: 'root',
      status: 'disabled',
      passwordChangeRequired: true,
      avatarUrl: '/evil',
    })
    sneaky.assertStatus(422)
    assert.sameMembers(
      sneaky.body().errors.map((error: { field: string }) => error.field),
      ['account', 'status', 'passwordChangeRequired', 'avatarUrl']
    )
    assert.equal((await User.findOrFail(user.id)).nickname, user.nickname)

    const response = await client.put('/api/auth/profile').loginAs(user).json({
      nickname: '  Ada  ',
      email: 'ada@example.com',
      currentPassword: TEST_PASSWORD,
    })
    response.assertStatus(200)
    assert.include(response.body().data, {
      nickname: 'Ada',
      email: 'ada@example.com',
      account: 'profiled',
    })
    const row = await User.findOrFail(user.id)
    assert.deepInclude(row.$attributes, {
      nickname: 'Ada',
      email: 'ada@example.com',
      account: 'profiled',
      status: 'enabled',
      mustChangePassword: false,
      avatarEtag: null,
    })
    const audit = await db.from('audit_logs').where('actor_id', user.id).firstOrFail()
    assert.include(audit, {
      permission: OWN_PROFILE,
      target_type: 'user',
      target_id: String(user.id),
      outcome: 'succeeded',
    })
    assert.deepEqual(JSON.parse(audit.changes), {
      nickname: ['profiled', 'Ada'],
      email: [null, 'ada@example.com'],
    })
  })

  test('PUT /api/auth/profile: {name} -> 422, nothing changes')
    .with([
      { name: 'bad email', body: { email: 'not-an-email' }, field: 'email' },
      { name: 'nickname not a string', body: { nickname: ['Ada'] }, field: 'nickname' },
      { name: 'nickname too long', body: { nickname: 'x'.repeat(65) }, field: 'nickname' },
    ])
    .run(async ({ client, assert }, row) => {
      const user = await createAdmin('profiled')
      const response = await client.put('/api/auth/profile').loginAs(user).json(row.body)
      response.assertStatus(422)
      assert.equal(response.body().errors[0].field, row.field)
      assert.equal((await User.findOrFail(user.id)).nickname, 'profiled')
      assert.lengthOf(await db.from('audit_logs').where('actor_id', user.id), 0)
    })

  test('avatar: {name} -> 422, nothing stored')
    .with(BAD_AVATARS)
    .run(async ({ client, assert }, row) => {
      const user = await createAdmin('uploader')
      const before = await stored(user.id)
      const response = await upload(client, user, {
        ...row.upload,
        bytes: await row.upload.bytes(),
      })
      response.assertStatus(422)
      assert.deepInclude(response.body().errors[0], {
        code: 'E_VALIDATION_ERROR',
        field: 'avatar',
        rule: row.rule,
      })
      assert.deepEqual(await stored(user.id), before)
    })

  test('avatar: {name} -> 422, nothing stored')
    .with([
      { name: 'a JSON body', send: (r: any) => r.json({ avatar: 'data:image/png;base64,AAAA' }) },
      {
        name: 'a multipart body without the part',
        send: (r: any) => r.file('photo', Buffer.from('x'), 'x.png'),
      },
      { name: 'the part as a plain field', send: (r: any) => r.field('avatar', 'iVBORw0KGgo=') },
    ])
    .run(async ({ client, assert }, row) => {
      const user = await createAdmin('uploader')
      const response = await row.send(client.put('/api/auth/avatar').loginAs(user))
      response.assertStatus(422)
      assert.deepInclude(response.body().errors[0], { field: 'avatar', rule: 'required' })
      assert.deepEqual(await stored(user.id), { avatars: 0, etag: null, audits: 0 })
    })

  test(
    'avatar: a {name} becomes a 256 x 256 WebP without metadata, served with an ETag (304 when unchanged)'
  )
    .with([
      { name: 'PNG', make: () => photo(640, 480).png().toBuffer(), contentType: 'image/png' },
      { name: 'JPEG', make: () => photo(300, 900).jpeg().toBuffer(), contentType: 'image/jpeg' },
    ])
    .run(async ({ client, assert }, row) => {
      const user = await createAdmin('uploader')
      const input = await row.make()
      assert.isDefined((await sharp(input).metadata()).exif) // the input does carry EXIF
      const response = await upload(client, user, {
        bytes: input,
        filename: 'me.bin',
        contentType: row.contentType,
      })
      response.assertStatus(200)
      const { avatarUrl } = response.body().data
      assert.match(avatarUrl, new RegExp(`^/api/avatars/${user.id}\\?v=[A-Za-z0-9_-]+$`))

      const me = await client.get('/api/auth/me').loginAs(user)
      assert.equal(me.body().data.user.avatarUrl, avatarUrl)
      // Another administrator sees it in the user list and may fetch it.
      const other = await createAdmin('viewer', { roles: ['super_admin'] })
      const list = await client.get('/api/admin/users').qs({ keyword: 'uploader' }).loginAs(other)
      assert.equal(list.body().data[0].avatarUrl, avatarUrl)

      const served = await client.get(avatarUrl).loginAs(other)
      served.assertStatus(200)
      assert.equal(served.header('content-type'), 'image/webp')
      assert.equal(served.header('cache-control'), 'private, no-cache')
      const etag = served.header('etag')!
      assert.match(etag, /^"[A-Za-z0-9_-]+"$/)
      const webp = await sharp(Buffer.from(served.body() as any)).metadata()
      assert.include(webp, { format: 'webp', width: 256, height: 256 })
      assert.isUndefined(webp.exif)
      assert.isUndefined(webp.xmp)
      assert.notInclude(Buffer.from(served.body() as any).toString('latin1'), 'secret-location')

      const again = await client.get(avatarUrl).loginAs(other).header('if-none-match', etag)
      again.assertStatus(304)
      // The bytes live in the database, with the ETag users.avatar_etag repeats.
      const rowStored = await db.from('user_avatars').where('user_id', user.id).firstOrFail()
      assert.equal(`"${rowStored.etag}"`, etag)
      assert.equal((await User.findOrFail(user.id)).avatarEtag, rowStored.etag)
      const audit = await db.from('audit_logs').where('actor_id', user.id).firstOrFail()
      assert.deepEqual(JSON.parse(audit.changes), { avatar: [null, rowStored.etag] })

      // A new image: a new ETag and URL; the old validator no longer matches.
      const replaced = await upload(client, user, {
        bytes: await photo(200, 200).webp().toBuffer(),
        filename: 'me.webp',
        contentType: 'image/webp',
      })
      replaced.assertStatus(200)
      assert.notEqual(replaced.body().data.avatarUrl, avatarUrl)
      ;(await client.get(avatarUrl).loginAs(other).header('if-none-match', etag)).assertStatus(200)
      assert.lengthOf(await db.from('user_avatars').where('user_id', user.id), 1)
    })

  test('avatars are for signed-in administrators only: {name}')
    .with([
      { name: 'no token -> 401', who: 'anonymous', status: 401 },
      {
        name: 'an account that must change its password first -> 403',
        who: 'pending',
        status: 403,
      },
      { name: 'an account without an avatar -> 404', who: 'none', status: 404 },
      { name: 'an id past 32 bits -> 404', who: 'huge', status: 404 },
      { name: 'any signed-in administrator -> 200', who: 'viewer', status: 200 },
    ] as const)
    .run(async ({ client, assert }, row) => {
      const owner = await createAdmin('uploader')
      ;(
        await upload(client, owner, {
          bytes: await photo(64, 64).png().toBuffer(),
          filename: 'a.png',
          contentType: 'image/png',
        })
      ).assertStatus(200)
      const viewer = await createAdmin('viewer')
      if (row.who === 'pending') {
        viewer.mustChangePassword = true
        await viewer.save()
      }
      const id = row.who === 'none' ? viewer.id : row.who === 'huge' ? 9_999_999_999 : owner.id
      const request = client.get(`/api/avatars/${id}`)
      const response = row.who === 'anonymous' ? await request : await request.loginAs(viewer)
      response.assertStatus(row.status)
      if (row.status !== 200) assert.notEqual(response.header('content-type'), 'image/webp')
    })
})
