import { test } from '@japa/runner'
import { relyingParty } from '#config/admin_auth'

/*
| RP_ID and RP_ORIGIN (config/admin_auth.ts), checked at boot: a passkey setting browsers would
| refuse stops the app with the setting's name, not at the first registration.
*/
test.group('Passkeys: the relying party settings', () => {
  test('defaults: the origin and host of APP_URL (or the console dev server)', ({ assert }) => {
    const defaults = relyingParty()
    assert.match(defaults.origin, /^https?:\/\/[^/]+$/)
    assert.equal(defaults.rpId, new URL(defaults.origin).hostname)
    assert.deepEqual(relyingParty(undefined, 'https://Admin.Example.com/console'), {
      rpId: 'admin.example.com',
      origin: 'https://admin.example.com',
    })
  })

  test('RP_ID may be the origin host or a parent domain of it', ({ assert }) => {
    assert.equal(relyingParty('example.com', 'https://admin.example.com').rpId, 'example.com')
    assert.equal(relyingParty('localhost', 'http://localhost:5173').origin, 'http://localhost:5173')
  })

  test('refused: {name}')
    .with([
      {
        name: 'another domain',
        id: 'example.com',
        origin: 'https://admin.other.com',
        key: 'RP_ID',
      },
      { name: 'a look-alike', id: 'example.com', origin: 'https://notexample.com', key: 'RP_ID' },
      {
        name: 'a child as RP ID',
        id: 'a.example.com',
        origin: 'https://example.com',
        key: 'RP_ID',
      },
      { name: 'http off localhost', origin: 'http://admin.example.com', key: 'RP_ORIGIN' },
      { name: 'not a URL', origin: 'admin.example.com', key: 'RP_ORIGIN' },
    ] as { name: string; id?: string; origin: string; key: string }[])
    .run(({ assert }, row) => {
      assert.throws(() => relyingParty(row.id, row.origin), new RegExp(`"${row.key}"`))
    })
})
