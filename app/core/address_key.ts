import { isIPv6 } from 'node:net'

/**
 * The key a client address is counted under by every per-address limit: an IPv4 address as it
 * is, an IPv6 address by its /64 (one subscriber usually holds a whole /64, so counting full
 * addresses would give an attacker 2^64 keys). IPv4-mapped IPv6 (::ffff:a.b.c.d) is its IPv4.
 */
export function addressKey(ip: string): string {
  // IPv4 (no colon) as it is, before the IPv6 checks: it is on every login and captcha request.
  if (!ip.includes(':')) return ip
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)
  if (mapped) return mapped[1]
  if (!isIPv6(ip)) return ip
  const [head, tail = ''] = ip.toLowerCase().split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = ip.includes('::')
    ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
    : left
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group || '0', 16).toString(16))
    .join(':')}::/64`
}
