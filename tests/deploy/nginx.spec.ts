import { spawn } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import pg from 'pg'
import sharp from 'sharp'
import type { Browser, Page } from 'playwright-core'
import { failHangsAtTheirLine, humanDrag, launchChromium } from '#tests/helpers/browser'
import { captchaAt, rightVerify, TAKE_ANSWER_SQL } from '#tests/helpers/captcha'
import { freePort } from '#tests/helpers/app_process'
import { pgConnection } from '#tests/helpers/pg_database'
import { startSmtpServer, waitForMail } from '#tests/helpers/smtp'

/**
 * The deployment of docs/deploy.md, set up by .ci/deploy-nginx.sh (run that script, not this file):
 * the production build on DEPLOY_APP_URL with TRUSTED_PROXIES=127.0.0.1, Debian's nginx running
 * deploy/nginx/adonis-rbac.conf on DEPLOY_URL (TLS, a self-signed certificate trusted here through
 * NODE_EXTRA_CA_CERTS), its database DEPLOY_PG_DB. The browser and the fetches below reach nginx
 * over IPv6 ([::1]) while nginx reaches the app over IPv4 (127.0.0.1), so the address the app
 * records tells the client's (::1) from the proxy's (127.0.0.1).
 */
const settings = () => {
  const names = ['DEPLOY_URL', 'DEPLOY_HTTPS_PORT', 'DEPLOY_HTTP_PORT', 'DEPLOY_APP_URL']
  const more = ['DEPLOY_PG_DB', 'DEPLOY_ADMIN_PASSWORD', 'DEPLOY_WORK', 'DEPLOY_SMTP_PORT']
  const missing = [...names, ...more].filter((name) => !process.env[name])
  if (missing.length) {
    throw new Error(`${missing.join(', ')} unset: this suite runs from .ci/deploy-nginx.sh`)
  }
  const port = process.env.DEPLOY_HTTPS_PORT!
  return {
    /** The console's origin as a person types it (Chromium resolves admin.test to ::1). */
    url: process.env.DEPLOY_URL!,
    /** The same nginx for fetches from this process, over IPv6. */
    v6: `https://[::1]:${port}`,
    http: `http://127.0.0.1:${process.env.DEPLOY_HTTP_PORT}`,
    app: process.env.DEPLOY_APP_URL!,
    database: process.env.DEPLOY_PG_DB!,
    seededPassword: process.env.DEPLOY_ADMIN_PASSWORD!,
    work: process.env.DEPLOY_WORK!,
    /** Where the deployment sends mail (SMTP_HOST=127.0.0.1): this suite receives it there. */
    smtpPort: Number(process.env.DEPLOY_SMTP_PORT),
  }
}

const ADMIN = 'admin'
const NEW_PASSWORD = 'Deployed-Own-Passw0rd-7!'
const SPOOFED = '203.0.113.9'
const SIDEBAR = '[data-testid="sidebar"]'
const READY = '[data-testid="captcha"][data-pow="solved"][data-captcha-state="ready"]'

type Env = ReturnType<typeof settings>

/** The latest login-log row of an account in the deployment's database. */
async function lastLogin(db: pg.Client, account: string) {
  const { rows } = await db.query(
    'SELECT ip, outcome FROM login_logs WHERE account = $1 ORDER BY id DESC LIMIT 1',
    [account]
  )
  return rows[0] as { ip: string; outcome: string } | undefined
}

/**
 * A login over fetch as the console makes it (challenge, proof of work, slider, verify, login),
 * every request carrying `headers`; the slider's answer read from the database. Its status.
 */
async function loginOverFetch(
  db: pg.Client,
  base: string,
  password: string,
  headers: Record<string, string>
) {
  const slider = await captchaAt(base, { headers })
  const { rows } = await db.query(TAKE_ANSWER_SQL, [slider.captchaId])
  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    })
  const verify = await post(
    '/api/auth/captcha/verify',
    await rightVerify(slider, Number(rows[0].answer_x))
  )
  const { data } = (await verify.json()) as any
  const login = await post('/api/auth/login', {
    account: ADMIN,
    password,
    captchaToken: data.captchaToken,
  })
  return { status: login.status, body: (await login.json()) as any }
}

/** Signs in on the console's login page: proof of work, slider dragged to the stored answer. */
async function signIn(page: Page, env: Env, db: pg.Client, password: string) {
  await page.goto(`${env.url}/#/login`)
  const slider = page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === '/api/auth/captcha' &&
      response.request().method() === 'POST',
    { timeout: 60_000 }
  )
  await page.locator('input[name="account"]').fill(ADMIN)
  await page.locator('input[name="password"]').fill(password)
  const { data } = await (await slider).json()
  await page.waitForSelector(READY, { timeout: 60_000 })
  const { rows } = await db.query('SELECT answer_x FROM captcha_challenges WHERE id = $1', [
    data.captchaId,
  ])
  await humanDrag(page, '[data-testid="captcha-handle"]', Number(rows[0].answer_x))
  await page.waitForSelector('[data-testid="captcha"][data-captcha-state="verified"]')
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.waitForSelector(SIDEBAR, { timeout: 15_000 })
}

test.group('Deploy: the production build behind nginx (.ci/deploy-nginx.sh)', (group) => {
  let env: Env
  let db: pg.Client
  let browser: Browser
  failHangsAtTheirLine(group, () => browser)

  group.setup(async () => {
    env = settings()
    db = new pg.Client(pgConnection(env.database))
    await db.connect()
    browser = await launchChromium({ hostMap: ['admin.test'], address: '[::1]' })
    return async () => {
      await browser?.close()
      await db?.end()
    }
  })

  test('nginx serves the console with its cache rules and SPA fallback, /api from the app, redirects http', async ({
    assert,
  }) => {
    const index = await fetch(`${env.v6}/`)
    assert.equal(index.status, 200)
    assert.equal(index.headers.get('cache-control'), 'no-cache')
    assert.include(index.headers.get('strict-transport-security') ?? '', 'max-age=')
    assert.include(index.headers.get('content-security-policy') ?? '', "default-src 'self'")
    const html = await index.text()
    const script = html.match(/src="(\/assets\/[^"]+\.js)"/)?.[1]
    assert.isString(script, 'index.html loads a hashed script')

    const asset = await fetch(`${env.v6}${script}`)
    assert.equal(asset.status, 200)
    assert.match(asset.headers.get('content-type') ?? '', /javascript/)
    assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable')
    // A hashed file that is gone (a tab older than the deploy) is a 404, not index.html.
    assert.equal((await fetch(`${env.v6}/assets/index-gone1234.js`)).status, 404)
    // Any other path is the single-page app, revalidated.
    const deep = await fetch(`${env.v6}/users/1`)
    assert.equal(deep.status, 200)
    assert.equal(await deep.text(), html)

    // /api is the app's: its answers and error contract, with no static-file headers added.
    const health = await fetch(`${env.v6}/api/health`)
    assert.equal(health.status, 200)
    assert.deepEqual(await health.json(), { data: { status: 'ok' } })
    // The app's own policy (no framing of an answer), not the console's that nginx adds to files.
    assert.equal(health.headers.get('content-security-policy'), "frame-ancestors 'none'")
    const unknown = await fetch(`${env.v6}/api/nothing-here`)
    assert.equal(unknown.status, 404)
    assert.equal(((await unknown.json()) as any).errors[0].code, 'E_NOT_FOUND')

    // The app itself listens on 127.0.0.1 only (HOST): nginx is the way in.
    assert.equal((await fetch(`${env.app}/api/health`)).status, 200)
    const appPort = new URL(env.app).port
    await assert.rejects(() => fetch(`http://[::1]:${appPort}/api/health`))

    const plain = await fetch(`${env.http}/#/login`, { redirect: 'manual' })
    assert.equal(plain.status, 301)
    assert.match(plain.headers.get('location') ?? '', /^https:\/\//)
  })

  test('the first administrator signs in through nginx in Chromium, must change the seeded password, and the app records the browser address', async ({
    assert,
  }) => {
    // The certificate is self-signed (this process trusts it through NODE_EXTRA_CA_CERTS).
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      ignoreHTTPSErrors: true,
    })
    const page = await context.newPage()
    const violations: string[] = []
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) violations.push(message.text())
    })
    await signIn(page, env, db, env.seededPassword)

    // The seeded password was chosen by an operator: the console goes nowhere but its change.
    await page.waitForURL(/#\/password/, { timeout: 15_000 })
    await page.getByText('Choose your own password before you go on.').waitFor()
    await page.getByLabel('Current password').fill(env.seededPassword)
    await page.getByLabel(/^New password/).fill(NEW_PASSWORD)
    await page.getByLabel('Repeat the new password').fill(NEW_PASSWORD)
    await page.getByRole('button', { name: 'Change password' }).click()
    await page.getByText('Password changed: your other sessions have ended').waitFor()
    await page.locator(`${SIDEBAR} a`, { hasText: 'Users' }).click()
    await page.locator('table tbody tr', { hasText: ADMIN }).first().waitFor()
    await mkdir(app.makePath('tmp/browser'), { recursive: true })
    await page.screenshot({ path: app.makePath('tmp/browser/deploy-users.png') })
    assert.deepEqual(violations, [], 'the console runs under the site Content-Security-Policy')

    // Chromium reached nginx over IPv6; nginx reached the app from 127.0.0.1, a trusted proxy.
    const { rows } = await db.query(
      "SELECT ip FROM login_logs WHERE account = $1 AND outcome = 'succeeded'",
      [ADMIN]
    )
    assert.deepEqual(rows, [{ ip: '::1' }])
    const sessions = await db.query('SELECT DISTINCT ip FROM admin_sessions')
    assert.deepEqual(sessions.rows, [{ ip: '::1' }])

    // One request id in both logs: nginx's $request_id, kept by the app (X-Request-Id).
    const appLines = (await readFile(`${env.work}/app.log`, 'utf8'))
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line))
    const appLogin = appLines.find(
      (line) => line.msg === 'request' && line.route === '/api/auth/login' && line.status === 200
    )
    assert.exists(appLogin, 'the app logged the login')
    const nginxLog = await readFile(`${env.work}/nginx-adonis-rbac.access.log`, 'utf8')
    // The login itself, not the passkey options the page asks first (`/api/auth/login/passkey/...`).
    const nginxLogin = nginxLog
      .split('\n')
      .find((line) => line.includes('"POST /api/auth/login HTTP'))
    assert.include(nginxLogin ?? '', ` 200 `)
    assert.include(nginxLogin ?? '', `rid=${appLogin.request_id}`)
    await context.close()
  })

  test('uploads pass up to the avatar limit; a larger body is refused by nginx in the error contract', async ({
    assert,
  }) => {
    const login = await loginOverFetch(db, env.v6, NEW_PASSWORD, {})
    assert.equal(login.status, 200)
    const auth = { authorization: `Bearer ${login.body.data.token}` }

    const image = await sharp({
      create: { width: 300, height: 300, channels: 3, background: '#3366aa' },
    })
      .png()
      .toBuffer()
    const form = new FormData()
    form.append('avatar', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'me.png')
    const upload = await fetch(`${env.v6}/api/auth/avatar`, {
      method: 'PUT',
      headers: auth,
      body: form,
    })
    assert.equal(upload.status, 200)

    // Past the app's own limit (2 MB) but within nginx's: the app answers, naming the field.
    const big = new FormData()
    big.append('avatar', new Blob([new Uint8Array(2.5 * 1024 * 1024)]), 'big.png')
    const byApp = await fetch(`${env.v6}/api/auth/avatar`, {
      method: 'PUT',
      headers: auth,
      body: big,
    })
    assert.equal(byApp.status, 422)
    assert.containsSubset(((await byApp.json()) as any).errors, [{ field: 'avatar', rule: 'size' }])
    // Past client_max_body_size: nginx answers before reading, in the same contract.
    const byNginx = await fetch(`${env.v6}/api/auth/avatar`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'multipart/form-data; boundary=x' },
      body: new Uint8Array(4 * 1024 * 1024),
    })
    assert.equal(byNginx.status, 413)
    assert.deepEqual(await byNginx.json(), {
      errors: [{ code: 'E_PAYLOAD_TOO_LARGE', message: 'Request body too large' }],
    })
  })

  test("a client's own X-Forwarded-For is never the recorded address: through nginx, or straight to an app without TRUSTED_PROXIES", async ({
    assert,
  }) => {
    const spoof = { 'x-forwarded-for': SPOOFED }
    // Through nginx: it appends the peer (::1); the app trusts 127.0.0.1 only, so ::1 is the client.
    const viaNginx = await loginOverFetch(db, env.v6, NEW_PASSWORD, spoof)
    assert.equal(viaNginx.status, 200)
    assert.deepEqual(await lastLogin(db, ADMIN), { ip: '::1', outcome: 'succeeded' })

    // The same release with the same settings minus TRUSTED_PROXIES, reached directly: the
    // header is ignored, the socket's address counts.
    const settingsFile = await readFile(`${env.work}/etc/.env`, 'utf8')
    const dir = `${env.work}/etc-untrusted`
    await mkdir(dir, { recursive: true })
    await writeFile(`${dir}/.env`, settingsFile.replace(/^TRUSTED_PROXIES=.*$/m, ''), {
      mode: 0o600,
    })
    const port = await freePort()
    const child = spawn(process.execPath, ['bin/server.js'], {
      cwd: app.makePath('build'),
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        ENV_PATH: dir,
        PORT: String(port),
      },
      stdio: 'ignore',
    })
    try {
      const base = `http://127.0.0.1:${port}`
      for (let tries = 0; tries < 100; tries++) {
        const ready = await fetch(`${base}/api/health/ready`).catch(() => null)
        if (ready?.status === 200) break
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      const direct = await loginOverFetch(db, base, NEW_PASSWORD, spoof)
      assert.equal(direct.status, 200)
      assert.deepEqual(await lastLogin(db, ADMIN), { ip: '127.0.0.1', outcome: 'succeeded' })
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    }
    const { rows } = await db.query('SELECT count(*)::int AS n FROM login_logs WHERE ip = $1', [
      SPOOFED,
    ])
    assert.equal(rows[0].n, 0)
  })
  test('one real mail through the production build: forgot password sends its link over SMTP', async ({
    assert,
  }) => {
    const smtp = await startSmtpServer(env.smtpPort)
    try {
      const address = 'admin@deploy.test'
      await db.query('UPDATE users SET email = $1, email_verified_at = now() WHERE account = $2', [
        address,
        ADMIN,
      ])
      // A captcha credential through nginx, as the console earns it.
      const headers = { 'content-type': 'application/json' }
      const slider = await captchaAt(env.v6)
      const { rows } = await db.query(TAKE_ANSWER_SQL, [slider.captchaId])
      const verify = await fetch(`${env.v6}/api/auth/captcha/verify`, {
        method: 'POST',
        headers,
        body: JSON.stringify(await rightVerify(slider, Number(rows[0].answer_x))),
      })
      const { captchaToken } = ((await verify.json()) as any).data
      const forgot = await fetch(`${env.v6}/api/auth/password/forgot`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ account: ADMIN, captchaToken }),
      })
      assert.equal(forgot.status, 202)
      const mail = await waitForMail(address, 1, 20_000)
      const link = /https:\/\/admin\.test:\d+\/#\/reset-password\?token=[\w-]+/.exec(mail.text)
      assert.isNotNull(link, mail.text)
      assert.isTrue(link![0].startsWith(env.url), 'the link names the console origin (APP_URL)')
    } finally {
      await smtp.close()
    }
  }).timeout(60_000)
})
