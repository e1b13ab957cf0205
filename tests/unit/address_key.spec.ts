import { test } from '@japa/runner'
import { addressKey } from '#core/address_key'

test.group('addressKey', () => {
  test('IPv4 stays itself, IPv4-mapped IPv6 becomes its IPv4', ({ assert }) => {
    assert.equal(addressKey('203.0.113.7'), '203.0.113.7')
    assert.equal(addressKey('::ffff:203.0.113.7'), '203.0.113.7')
  })

  test('every address of one IPv6 /64 shares one key; another /64 does not', ({ assert }) => {
    const key = addressKey('2001:db8:1:2::1')
    assert.equal(key, '2001:db8:1:2::/64')
    assert.equal(addressKey('2001:0db8:0001:0002:ffff:eeee:dddd:cccc'), key)
    assert.equal(addressKey('2001:db8:1:2:0:0:0:9'), key)
    assert.notEqual(addressKey('2001:db8:1:3::1'), key)
    assert.equal(addressKey('::1'), '0:0:0:0::/64')
  })
})
