import { readFileSync } from 'node:fs'
import { test } from '@japa/runner'

/** The `img-src` directive of a Content-Security-Policy value. */
const imgSrc = (policy: string) => /(?:^|;)\s*img-src ([^;]*)/.exec(policy)?.[1].trim()

/*
| Notices are rendered HTML shown to every administrator: the console's policy lets images come
| from its own origin, data: and blob: (captcha, avatars) only, so no markup can make a reader's
| browser fetch a remote URL (app/services/notice_markdown.ts is the first line).
*/
test.group('The console loads images from itself only', () => {
  test('nginx and the console page name the same img-src', ({ assert }) => {
    const nginx = readFileSync('deploy/nginx/adonis-rbac.conf', 'utf8')
    const site = /^\s*default\s+"([^"]*default-src[^"]*)";/m.exec(nginx)?.[1]
    assert.isString(site, 'the console policy in deploy/nginx/adonis-rbac.conf')
    assert.equal(imgSrc(site!), "'self' data: blob:")

    const page = readFileSync('console/index.html', 'utf8')
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(page)?.[1]
    assert.isString(meta, 'a policy in console/index.html')
    assert.equal(imgSrc(meta!), "'self' data: blob:")
  })
})
