import { existsSync } from 'node:fs'
import { mkdir, readFile } from 'node:fs/promises'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { Browser, Page } from 'playwright-core'
import sharp from 'sharp'
import { DateTime } from 'luxon'
import User from '#models/user'
import adminAuthConfig from '#config/admin_auth'
import { RACE_GRACE_MS } from '#auth/device_tokens'
import { clearInbox, tokenIn, waitForMail } from '#tests/helpers/smtp'
import env from '#start/env'
import { withRealCommits } from '#tests/helpers/database'
import Menu from '#models/menu'
import Dept from '#models/dept'
import LoginLog from '#models/login_log'
import AuditLog from '#models/audit_log'
import { ArticleFactory } from '#database/factories/article_factory'
import { apiTokenFor } from '#tests/helpers/api_tokens'
import {
  ADMIN_ACCOUNT,
  ADMIN_PASSWORD,
  challengeAnswer,
  createAdmin,
  freshCredential,
  sessionToken,
  TEST_PASSWORD,
} from '#tests/helpers/auth'
import { button, chainOf, seededAdmin } from '#tests/helpers/rbac'
import Role from '#models/role'
import { blockedUntil, consume, countFailure } from '#auth/limits'
import { accountKey, ceilingKey } from '#auth/login_limiter'
import {
  apiSettled,
  failHangsAtTheirLine,
  humanDrag,
  launchChromium,
  openAs,
  signOutForgettingDevice,
  virtualAuthenticator,
} from '#tests/helpers/browser'
import { startConsoleServer, type ConsoleServer } from '#tests/helpers/console_server'
import { measurePowInChromium, powSummary } from '#tests/helpers/pow_in_chromium'
import { requiring2fa, totp } from '#tests/helpers/two_factor'

/**
 * The reference console (console/, built with `cd console && npm ci && npm run build`) in a real
 * Chromium against the app under test (the suite's HTTP server on PORT), served the way a
 * deployment serves it: static files plus /api forwarded to the API.
 */
const DIST = app.makePath('console/dist')
const SHOTS = app.makePath('tmp/browser')
const EDITOR = { account: 'editor1', password: 'Editor-Passw0rd-1!' }

const SIDEBAR = '[data-testid="sidebar"]'
const sidebarLinks = (page: Page) => page.locator(`${SIDEBAR} a`).allInnerTexts()
const sidebarHeadings = (page: Page) =>
  page.locator(`${SIDEBAR} li.MuiListSubheader-root`).allInnerTexts()
const trimAll = (texts: string[]) => texts.map((text) => text.trim()).filter(Boolean)

/**
 * Opens the login page and signs in: the account typed (its proof of work starts 300 ms after the
 * last keystroke and runs while the password is typed), then the slider moved to the answer the
 * server stored (read from the test database), by a pointer drag or by the keyboard path. Returns
 * the time from navigation start to a usable login form.
 */
const READY = '[data-testid="captcha"][data-pow="solved"][data-captcha-state="ready"]'
const HANDLE = '[data-testid="captcha-handle"]'
/** POST /api/auth/captcha: the slider drawn for a solved proof of work (its id, the answer's key). */
const nextSlider = (page: Page) =>
  page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === '/api/auth/captcha' &&
      response.request().method() === 'POST',
    { timeout: 60_000 }
  )
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * A browser without passkey autofill (WebAuthn conditional mediation): Chromium's virtual
 * authenticator answers the login page's autofill request by itself, which would sign in before
 * the password or the button is used.
 */
const withoutPasskeyAutofill = (page: Page) =>
  page.addInitScript('PublicKeyCredential.isConditionalMediationAvailable = async () => false')

/**
 * The keyboard path as a person takes it: the handle focused, Shift+ArrowRight taps (10 px) at an
 * uneven pace to just short of the gap, a look, then ArrowRight (1 px) taps, then Enter.
 */
async function keyboardSlide(page: Page, answer: number, seed = 11) {
  let state = seed
  const random = () => (state = (state * 48271) % 2147483647) / 2147483647
  await page.locator(HANDLE).focus()
  let x = 0
  while (answer - x > 12) {
    await page.keyboard.press('Shift+ArrowRight')
    x += 10
    await sleep(90 + random() * 120)
  }
  await sleep(400)
  while (x < answer) {
    await page.keyboard.press('ArrowRight')
    x += 1
    await sleep(60 + random() * 90)
  }
  await page.keyboard.press('Enter')
}

/** A usable login form: performance.now() (ms since navigation start) when it is. */
const formReady = (page: Page) =>
  page
    .waitForFunction(
      `(() => {
        const input = document.querySelector('input[name="account"]')
        return input && !input.disabled && input.getBoundingClientRect().width > 0 && performance.now()
      })()`,
      undefined,
      { timeout: 30_000 }
    )
    .then((handle) => handle.jsonValue() as Promise<number>)

async function signIn(
  page: Page,
  base: string,
  account: string,
  password: string,
  options: {
    shot?: string
    missFirst?: boolean
    keyboard?: boolean
    /** The login page is open already (react-admin's, after a session ended): no navigation. */
    stay?: boolean
    /** The second login step (an account with a second factor): a code, a recovery code, a passkey. */
    secondStep?: {
      /** The page's virtual authenticator answers (virtualAuthenticator): no code typed. */
      passkey?: boolean
      code?: () => string
      recoveryCode?: string
      /** A recovery code tried first, which the page must show as refused (then ask again). */
      refusedFirst?: string
      remember?: boolean
      shot?: string
    }
  } = {}
) {
  if (!options.stay) await page.goto(`${base}/#/login`)
  const readyAt = await formReady(page)
  let slider = nextSlider(page)
  await page.locator('input[name="account"]').fill(account)
  await page.locator('input[name="password"]').fill(password)
  let { data } = await (await slider).json()
  await page.waitForSelector(READY)
  if (options.shot) await page.screenshot({ path: `${SHOTS}/${options.shot}` })

  if (options.missFirst) {
    // A drop beside the gap spends the slider; the page says so and pays for a new one.
    slider = nextSlider(page)
    const wrong = await challengeAnswer(data.captchaId)
    await humanDrag(page, HANDLE, wrong > 150 ? wrong - 60 : wrong + 60)
    await page.getByText('Not quite: try again').waitFor()
    data = (await (await slider).json()).data
    await page.waitForSelector(READY)
  }
  const answer = await challengeAnswer(data.captchaId)
  if (options.keyboard) await keyboardSlide(page, answer)
  else await humanDrag(page, HANDLE, answer)
  await page.waitForSelector('[data-testid="captcha"][data-captcha-state="verified"]', {
    timeout: 10_000,
  })
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  const second = options.secondStep
  if (second) {
    await page.locator('[data-testid="second-step"]').waitFor()
    if (second.passkey) {
      await page.getByRole('button', { name: 'Use a passkey' }).click()
    } else if (second.recoveryCode) {
      await page.getByRole('button', { name: 'Lost your phone? Use a recovery code' }).click()
      if (second.refusedFirst) {
        await page.getByLabel('Recovery code').fill(second.refusedFirst)
        await page.getByRole('button', { name: 'Verify' }).click()
        await page.locator('[data-testid="second-step"] [role="alert"]').waitFor()
      }
      await page.getByLabel('Recovery code').fill(second.recoveryCode)
    } else {
      await page.getByLabel('Code').fill(second.code!())
    }
    if (second.remember) await page.getByLabel('Remember this device').check()
    if (second.shot) {
      await sleep(300) // the label's transition
      await page.screenshot({ path: `${SHOTS}/${second.shot}` })
    }
    if (!second.passkey) await page.getByRole('button', { name: 'Verify' }).click()
  }
  await page.waitForSelector(SIDEBAR, { timeout: 15_000 })
  return readyAt
}

/** The slider the page is drawing (a nextSlider answer) dragged to its gap: verified. */
async function solveSlider(page: Page, slider: ReturnType<typeof nextSlider>) {
  const { data } = await (await slider).json()
  await page.waitForSelector(READY)
  await humanDrag(page, HANDLE, await challengeAnswer(data.captchaId))
  await page.waitForSelector('[data-testid="captcha"][data-captcha-state="verified"]')
}

/** The user menu's Logout: the console reloads on the login page. */
async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Profile' }).click()
  await page.getByRole('menuitem', { name: 'Logout' }).click()
  await page.waitForURL(/#\/login/)
  await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
}

/**
 * Latin words a person reads on a page in Chinese that are not data: the visible text, less what
 * the API sent (account names, titles, user agents, ...: every string of the JSON answers the
 * page received, except menu names, which the console translates), permission codes, paths,
 * addresses, and the words kept as they are in Chinese (ALLOWED_LATIN).
 */
const ALLOWED_LATIN = new Set(
  'ID IP API JWT TOTP JSON URL CSV PNG JPEG GIF WebP MB px https http QR Google Microsoft Authenticator Password'.split(
    ' '
  )
)
function dataWords(value: unknown, words: Set<string>, inMenu = false) {
  if (typeof value === 'string') {
    for (const word of value.match(/[A-Za-z]{2,}/g) ?? []) words.add(word)
  } else if (Array.isArray(value)) {
    for (const item of value) dataWords(item, words, inMenu)
  } else if (value && typeof value === 'object') {
    const menuNode = 'permission' in value && 'component' in value
    for (const [key, item] of Object.entries(value)) {
      if (key === 'name' && (menuNode || inMenu)) continue
      dataWords(item, words, key === 'menus')
    }
  }
}
function collectApiWords(page: Page) {
  const words = new Set<string>()
  page.on('response', async (response) => {
    if (!new URL(response.url()).pathname.startsWith('/api/')) return
    if (!(response.headers()['content-type'] ?? '').includes('json')) return
    try {
      dataWords(await response.json(), words)
    } catch {}
  })
  return words
}
async function untranslated(page: Page, data: Set<string>): Promise<string[]> {
  const text = await page.locator('body').innerText()
  const words = text
    .split(/\s+/)
    // Codes (system:user:list), paths and URLs, addresses, hints (…abcd): not words.
    .filter((token) => !/[:/@…]/.test(token))
    .flatMap((token) => token.match(/[A-Za-z]{2,}/g) ?? [])
  return [...new Set(words)].filter((word) => !ALLOWED_LATIN.has(word) && !data.has(word))
}

test.group('Console in Chromium', (group) => {
  withRealCommits(group)
  let browser: Browser
  let server: ConsoleServer
  failHangsAtTheirLine(group, () => browser)

  group.setup(async () => {
    if (!existsSync(`${DIST}/index.html`)) {
      throw new Error('console/dist is missing: run `cd console && npm ci && npm run build` first')
    }
    await mkdir(SHOTS, { recursive: true })
    server = await startConsoleServer({
      distDir: DIST,
      apiUrl: `http://127.0.0.1:${env.get('PORT')}`,
    })
    // admin.test: the console on a plain-http origin that is not localhost (no crypto.subtle).
    browser = await launchChromium({ hostMap: ['admin.test'] })
    return async () => {
      await browser?.close()
      await server?.close()
    }
  })

  test('super admin delegates the article pages; the new account sees exactly them, is signed out by a reset, changes its own password and is forced out', async ({
    assert,
  }) => {
    // The super admin signs in and sees every menu.
    const adminContext = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const admin = await adminContext.newPage()
    const readyMs = await signIn(admin, server.url, ADMIN_ACCOUNT, ADMIN_PASSWORD, {
      shot: 'login.png',
      missFirst: true,
    })
    console.log(`  console: page load -> usable login form: ${Math.round(readyMs)} ms`)
    assert.deepEqual(trimAll(await sidebarHeadings(admin)), ['System', 'Content', 'Monitor'])
    assert.deepEqual(trimAll(await sidebarLinks(admin)), [
      'Users',
      'Roles',
      'Menus',
      'Departments',
      'Dictionaries',
      'Parameters',
      'Notices',
      'Articles',
      'Online administrators',
      'Login log',
      'Audit log',
      'API tokens',
      'Access review',
    ])
    await admin.screenshot({ path: `${SHOTS}/sidebar.png` })
    // Every page it holds opens without an error (screenshots kept for a look).
    for (const [index, link] of (await sidebarLinks(admin)).entries()) {
      const answer = admin.waitForResponse((response) => response.url().includes('/api/admin/'))
      await admin.locator(`${SIDEBAR} a`, { hasText: link.trim() }).click()
      assert.equal((await answer).status(), 200, link)
      // For the screenshot only, so bounded.
      await apiSettled(admin, { timeout: 3_000 }).catch(() => undefined)
      await admin.screenshot({ path: `${SHOTS}/page-${index + 1}.png` })
    }

    for (const [name, route, text] of [
      ['user-edit', '/users/1', 'Nickname'],
      ['menu-create', '/menus/create', 'Permission'],
      ['password', '/password', 'Repeat the new password'],
    ]) {
      await admin.goto(`${server.url}/#${route}`)
      await admin.getByText(text).first().waitFor()
      await admin.screenshot({ path: `${SHOTS}/${name}.png` })
    }

    // A role holding only the article pages and two of their buttons (ancestors follow).
    await admin.goto(`${server.url}/#/roles/create`)
    await admin.locator('input[name="code"]').fill('article_editor')
    await admin.locator('input[name="name"]').fill('Article editor')
    await admin.getByLabel('content:article:list').check()
    await admin.getByLabel('content:article:create').check()
    await admin.screenshot({ path: `${SHOTS}/role-create.png`, fullPage: true })
    await admin.getByRole('button', { name: 'Save' }).click()
    await admin.waitForURL(/#\/roles$/)
    const role = await db.from('roles').where('code', 'article_editor').firstOrFail()
    const granted = await db
      .from('role_menus')
      .join('menus', 'menus.id', 'role_menus.menu_id')
      .where('role_menus.role_id', role.id)
      .orderBy('menus.id')
      .select('menus.name', 'menus.permission')
    assert.deepEqual(
      granted.map((menu) => menu.permission ?? menu.name),
      ['Content', 'Articles', 'content:article:list', 'content:article:create']
    )

    // An account with that role.
    await admin.goto(`${server.url}/#/users/create`)
    await admin.locator('input[name="account"]').fill(EDITOR.account)
    await admin.locator('input[name="password"]').fill(EDITOR.password)
    await admin.locator('input[name="nickname"]').fill('Editor One')
    await admin.getByRole('combobox', { name: 'Roles' }).click()
    await admin.getByRole('option', { name: 'Article editor' }).click()
    await admin.keyboard.press('Escape')
    await admin.getByRole('button', { name: 'Save' }).click()
    await admin.waitForURL(/#\/users$/)
    const editor = await db.from('users').where('account', EDITOR.account).firstOrFail()
    // Created by an administrator: it must change its password first (403
    // E_PASSWORD_CHANGE_REQUIRED elsewhere). The console's forced-change page is a later step of
    // issue 26; here that first change is marked done so the scenario stays about delegation.
    assert.isTrue(Boolean(editor.password_change_required))
    await db.from('users').where('id', editor.id).update({ password_change_required: false })
    const editorRoles = await db.from('user_roles').where('user_id', editor.id).select('role_id')
    assert.deepEqual(
      editorRoles.map((row) => row.role_id),
      [role.id]
    )

    // The new account, in a fresh browser context, sees exactly those menus and buttons.
    const editorContext = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await editorContext.newPage()
    await signIn(page, server.url, EDITOR.account, EDITOR.password)
    assert.deepEqual(trimAll(await sidebarHeadings(page)), ['Content'])
    assert.deepEqual(trimAll(await sidebarLinks(page)), ['Articles'])
    // A reload restores the session from the stored token and /api/auth/me.
    await page.reload()
    await page.waitForSelector(SIDEBAR)
    assert.deepEqual(trimAll(await sidebarLinks(page)), ['Articles'])
    await page.locator(`${SIDEBAR} a`, { hasText: 'Articles' }).click()
    // It holds content:article:create: it writes a draft.
    await page.getByRole('link', { name: 'Create' }).first().click()
    await page.locator('input[name="title"]').fill('Written by the editor')
    await page.getByRole('combobox', { name: 'Category' }).click()
    await page.getByRole('option', { name: 'guide' }).click()
    await page.locator('textarea[name="content"]').fill('A draft from the console.')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.locator('table tbody tr', { hasText: 'Written by the editor' }).waitFor()
    const draft = await db.from('articles').where('title', 'Written by the editor').firstOrFail()
    assert.equal(draft.status, 'draft')
    assert.equal(draft.author_id, editor.id)
    assert.equal(await page.getByRole('link', { name: 'Create' }).count(), 1)
    await page.screenshot({ path: `${SHOTS}/editor-articles.png` })
    for (const absent of ['Publish', 'Schedule', 'Unpublish', 'Delete']) {
      assert.equal(await page.getByRole('button', { name: absent, exact: true }).count(), 0, absent)
    }

    // A route outside what the role holds: 403 in the error contract.
    const outside = await page.evaluate(async () => {
      const response = await fetch('/api/admin/users', {
        headers: { Authorization: `Bearer ${localStorage.getItem('rbac.token')}` },
      })
      return { status: response.status, body: (await response.json()) as any }
    })
    assert.equal(outside.status, 403)
    assert.equal(outside.body.errors[0].code, 'E_FORBIDDEN')

    // A code taken away while the page is open: the next write is refused with a clear message.
    const createButton = await db
      .from('menus')
      .where('permission', 'content:article:create')
      .firstOrFail()
    await db.from('role_menus').where({ role_id: role.id, menu_id: createButton.id }).delete()
    await page.getByRole('link', { name: 'Create' }).first().click()
    await page.locator('input[name="title"]').fill('Refused')
    await page.getByRole('combobox', { name: 'Category' }).click()
    await page.getByRole('option', { name: 'news' }).click()
    await page.locator('textarea[name="content"]').fill('Not allowed any more.')
    await page.getByRole('button', { name: 'Save' }).click()
    // The server's message, once (console/src/i18n/errors.ts errorMessage).
    await page
      .getByText('You do not have permission to perform this action', { exact: true })
      .waitFor()
    await page.screenshot({ path: `${SHOTS}/editor-forbidden.png` })
    assert.isNull(await db.from('articles').where('title', 'Refused').first())

    // The super admin schedules the editor's draft (an hour ahead by default), then takes it back.
    await admin.goto(`${server.url}/#/articles`)
    const article = admin.locator('tr', { hasText: 'Written by the editor' })
    await article.getByRole('button', { name: 'Schedule', exact: true }).click()
    await admin.getByRole('button', { name: 'Confirm' }).click()
    // Exact: the row's actions read "PublishScheduleDelete", which holds "scheduled" already.
    await article.getByText('scheduled', { exact: true }).waitFor()
    const scheduled = await db.from('articles').where('id', draft.id).firstOrFail()
    assert.equal(scheduled.status, 'published')
    assert.isAbove(new Date(scheduled.published_at).getTime(), Date.now() + 30 * 60_000)
    await admin.screenshot({ path: `${SHOTS}/articles-scheduled.png` })
    await article.getByRole('button', { name: 'Unpublish', exact: true }).click()
    await article.getByText('draft', { exact: true }).waitFor()
    assert.equal((await db.from('articles').where('id', draft.id).firstOrFail()).status, 'draft')

    // The super admin resets that account's password from the users page.
    await admin.goto(`${server.url}/#/users`)
    const row = admin.locator('tr', { hasText: EDITOR.account })
    await row.getByRole('button', { name: 'Reset password' }).click()
    await admin.getByLabel('New password').fill('Another-Passw0rd-2!')
    await admin.getByRole('button', { name: 'Confirm' }).click()
    await admin.getByText("Password reset: the account's sessions have ended").waitFor()

    // The editor's open console lands on the login page at its next action.
    await page.getByRole('button', { name: 'Refresh' }).first().click()
    await page.waitForURL(/#\/login/, { timeout: 15_000 })
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
    await page.screenshot({ path: `${SHOTS}/editor-signed-out.png` })

    // Back in with the new password, the editor changes it on the own-password page: the tab
    // keeps working on the fresh token the answer carries; the old password no longer verifies.
    const reset = 'Another-Passw0rd-2!'
    const own = 'Third-Passw0rd-3!'
    await page.goto('about:blank') // the login page is open: signIn loads it afresh
    await signIn(page, server.url, EDITOR.account, reset)
    const hashBefore = (await db.from('users').where('id', editor.id).firstOrFail()).password
    // An administrator chose this password: the console goes nowhere but the password page.
    await page.waitForURL(/#\/password/, { timeout: 15_000 })
    await page.getByText('Choose your own password before you go on.').waitFor()
    await page.getByLabel('Current password').fill(reset)
    await page.getByLabel(/^New password/).fill(own)
    await page.getByLabel('Repeat the new password').fill(own)
    await page.getByRole('button', { name: 'Change password' }).click()
    await page.getByText('Password changed: your other sessions have ended').waitFor()
    const changed = await db.from('users').where('id', editor.id).firstOrFail()
    assert.notEqual(changed.password, hashBefore)
    await page.locator(`${SIDEBAR} a`, { hasText: 'Articles' }).click()
    await page.locator('table tbody tr', { hasText: 'Written by the editor' }).waitFor()

    // The super admin sees that one live session among the online administrators and ends it;
    // the editor's console lands on the login page at its next action.
    await admin.goto(`${server.url}/#/sessions`)
    const sessionRows = admin.locator('table tbody tr', { hasText: EDITOR.account })
    await sessionRows.first().waitFor()
    assert.equal(await sessionRows.count(), 1)
    // The page is titled with the menu's own name, as the sidebar shows it.
    await admin.locator('#react-admin-title', { hasText: 'Online administrators' }).waitFor()
    await admin.screenshot({ path: `${SHOTS}/sessions.png` })
    await sessionRows.getByRole('button', { name: 'Force logout' }).click()
    await admin.getByRole('button', { name: 'Confirm' }).click()
    await admin.getByText('Session ended').waitFor()
    const live = await db
      .from('admin_sessions')
      .where('user_id', editor.id)
      .whereNull('ended_at')
      .count('* as total')
    assert.equal(Number(live[0].total), 0)
    await page.getByRole('button', { name: 'Refresh' }).first().click()
    await page.waitForURL(/#\/login/, { timeout: 15_000 })

    await editorContext.close()
    await adminContext.close()
  })
  test('a forced second factor: enrolled from the console, then signed in with a TOTP code, with a recovery code, and from a remembered device', async ({
    assert,
  }) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    const admin = await db.from('users').where('account', ADMIN_ACCOUNT).firstOrFail()
    await requiring2fa('all', async () => {
      // AUTH_REQUIRE_2FA: the console goes nowhere but the enrolment page.
      await signIn(page, server.url, ADMIN_ACCOUNT, ADMIN_PASSWORD)
      await page.waitForURL(/#\/account\/2fa$/, { timeout: 15_000 })
      await page.getByText('Your organisation requires a second factor').waitFor()
      await page.locator(`${SIDEBAR} a`, { hasText: 'Users' }).click()
      await page.waitForURL(/#\/account\/2fa$/)

      // Password -> QR code and key -> a code of the app -> the 10 recovery codes, once.
      const totpCard = page.locator('[data-testid="totp"]')
      await totpCard.getByLabel('Current password').fill(ADMIN_PASSWORD)
      await page.getByRole('button', { name: 'Start setup' }).click()
      const qr = page.locator('[data-testid="2fa-qr"]')
      await qr.waitFor()
      assert.match((await qr.getAttribute('src'))!, /^data:image\/png;base64,/)
      assert.isAbove(
        await qr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
        0
      )
      const secret = (await page.locator('[data-testid="2fa-secret"]').innerText()).trim()
      assert.match(secret, /^[A-Z2-7]+=*$/)
      await page.screenshot({ path: `${SHOTS}/2fa-setup.png` })
      assert.isNull(
        (await db.from('users').where('id', admin.id).firstOrFail()).two_factor_confirmed_at
      )
      await page.getByLabel('Code from the app').fill(totp(secret))
      await page.getByRole('button', { name: 'Turn on' }).click()
      const shown = page.locator('[data-testid="recovery-codes"]')
      await shown.waitFor()
      const recoveryCodes = (await shown.innerText()).split('\n').map((code) => code.trim())
      assert.lengthOf(recoveryCodes, 10)
      await page.screenshot({ path: `${SHOTS}/2fa-recovery-codes.png` })
      assert.isNotNull(
        (await db.from('users').where('id', admin.id).firstOrFail()).two_factor_confirmed_at
      )
      await page.getByRole('button', { name: 'I have kept them' }).click()
      await page.locator('[data-testid="2fa-status"]', { hasText: 'On' }).waitFor()
      assert.equal(await shown.count(), 0) // shown once
      // The rest of the console is open now.
      const users = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/admin/users')
      await page.locator(`${SIDEBAR} a`, { hasText: 'Users' }).click()
      assert.equal((await users).status(), 200)

      // Signed out, back in: the password, then the code of the next time step (the one just
      // used to confirm is spent).
      await signOut(page)
      await signIn(page, server.url, ADMIN_ACCOUNT, ADMIN_PASSWORD, {
        secondStep: { code: () => totp(secret, 1), shot: '2fa-login-code.png' },
      })
      await page.screenshot({ path: `${SHOTS}/2fa-signed-in.png` })

      // Then with a recovery code: that code is spent.
      await signOut(page)
      await signIn(page, server.url, ADMIN_ACCOUNT, ADMIN_PASSWORD, {
        secondStep: { recoveryCode: recoveryCodes[0], shot: '2fa-login-recovery.png' },
      })
      let left = await db.from('two_factor_recovery_codes').where('user_id', admin.id)
      assert.lengthOf(left, 9)

      // The session ends under the open console: react-admin's own login page (useLogin) takes
      // both steps too. The spent code is refused and asked again; the next one, with "remember
      // this device", signs in.
      await page.evaluate(() => localStorage.setItem('rbac.token', 'ended.session.token'))
      await page.reload()
      await page.waitForURL(/#\/login/)
      await signIn(page, server.url, ADMIN_ACCOUNT, ADMIN_PASSWORD, {
        secondStep: {
          refusedFirst: recoveryCodes[0],
          recoveryCode: recoveryCodes[1],
          remember: true,
        },
        stay: true,
      })
      left = await db.from('two_factor_recovery_codes').where('user_id', admin.id)
      assert.lengthOf(left, 8)

      // The remembered device skips the second step.
      await signOut(page)
      const mfaAnswers: unknown[] = []
      page.on('response', async (response) => {
        if (new URL(response.url()).pathname === '/api/auth/login/2fa') mfaAnswers.push(response)
      })
      await signIn(page, server.url, ADMIN_ACCOUNT, ADMIN_PASSWORD)
      assert.lengthOf(mfaAnswers, 0)

      // Turned off with the password and another recovery code.
      await page.getByRole('button', { name: 'Profile' }).click()
      await page.getByRole('menuitem', { name: 'My account' }).click()
      await page.getByRole('tab', { name: 'Second factor' }).click()
      await totpCard.getByLabel('Current password').fill(ADMIN_PASSWORD)
      await page.getByLabel('Code or recovery code').fill(recoveryCodes[2])
      await page.getByRole('button', { name: 'Turn off' }).click()
      await page.getByText('Second factor turned off').waitFor()
      assert.isNull(
        (await db.from('users').where('id', admin.id).firstOrFail()).two_factor_confirmed_at
      )
    })
    await context.close()
  })

  test('an own API token created in the console works on an admin route, within its codes, until revoked', async ({
    assert,
  }) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    await signIn(page, server.url, ADMIN_ACCOUNT, ADMIN_PASSWORD)
    await page.getByRole('button', { name: 'Profile' }).click()
    await page.getByRole('menuitem', { name: 'My account' }).click()
    await page.getByRole('tab', { name: 'API tokens' }).click()
    await page.waitForURL(/#\/account\/tokens$/)
    await page.locator('input[name="name"]').fill('nightly export')
    await page.locator('input[name="expiresInDays"]').fill('7')
    // Codes from the menu tree: one button, then a whole page found by the search box.
    await page.getByLabel('system:user:list').check()
    await page.locator('input[name="permission-search"]').fill('article')
    await page.getByLabel('system:user:list').waitFor({ state: 'detached' })
    await page.getByRole('checkbox', { name: 'Articles' }).check()
    await page.getByText('6 codes selected').waitFor()
    await page.screenshot({ path: `${SHOTS}/api-token-codes.png` })
    await page.getByRole('button', { name: 'Create token' }).click()
    const shown = page.locator('[data-testid="new-token"]')
    await shown.waitFor()
    const token = (await shown.innerText()).trim()
    assert.match(token, /^rbac_[\w-]{43}$/)
    await page.locator('table tbody tr', { hasText: 'nightly export' }).waitFor()
    await page.screenshot({ path: `${SHOTS}/api-token.png`, fullPage: true })
    const row = await db.from('api_tokens').where('name', 'nightly export').firstOrFail()
    assert.sameMembers(JSON.parse(row.permissions), [
      'system:user:list',
      'content:article:list',
      'content:article:create',
      'content:article:update',
      'content:article:delete',
      'content:article:publish',
    ])
    assert.closeTo(Number(row.expires_at) - Number(row.created_at), 7 * 86_400_000, 60_000)

    const call = async (path: string) => {
      const response = await fetch(`${server.url}${path}`, {
        headers: { Authorization: `Bearer ${token}` },
      })
      return { status: response.status, body: (await response.json()) as any }
    }
    const list = await call('/api/admin/users?pageSize=100')
    assert.equal(list.status, 200)
    assert.include(
      list.body.data.map((user: { account: string }) => user.account),
      ADMIN_ACCOUNT
    )
    // Only its codes, and only admin routes.
    assert.equal((await call('/api/admin/roles')).body.errors[0].code, 'E_FORBIDDEN')
    assert.equal((await call('/api/auth/me')).status, 401)

    // Revoked from the console: refused at once.
    const tokenRow = page.locator('table tbody tr', { hasText: 'nightly export' })
    await tokenRow.getByRole('button', { name: 'Revoke' }).click()
    await page.getByRole('button', { name: 'Confirm' }).click()
    await page.getByText('Token revoked').waitFor()
    await tokenRow.waitFor({ state: 'detached' }) // revoking deletes the row
    assert.isNull(await db.from('api_tokens').where('id', row.id).first())
    assert.equal((await call('/api/admin/users')).status, 401)
    await context.close()
  })

  test('a dictionary item added in the console shows in its list; an import checked first shows a row error, then a valid file creates the account', async ({
    assert,
  }) => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      acceptDownloads: true,
    })
    const page = await context.newPage()
    await signIn(page, server.url, ADMIN_ACCOUNT, ADMIN_PASSWORD)

    // A dictionary type, then an item added under its row of the list.
    await page.locator(`${SIDEBAR} a`, { hasText: 'Dictionaries' }).click()
    await page.locator('table tbody tr', { hasText: 'sys_user_status' }).waitFor()
    await page.getByRole('link', { name: 'Create' }).click()
    await page.locator('input[name="code"]').fill('ticket_priority')
    await page.locator('input[name="name"]').fill('Ticket priority')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.waitForURL(/#\/dicts$/)
    const typeRow = page.locator('table tbody tr', { hasText: 'ticket_priority' }).first()
    // react-admin's expand button is aria-hidden (the row's own control): found by its label.
    await typeRow.locator('[aria-label="Expand"]').click()
    const items = page.locator('[data-testid="dict-items-ticket_priority"]')
    await items.getByText('No items yet').waitFor()
    await items.getByRole('button', { name: 'Add item' }).click()
    const itemDialog = page.getByRole('dialog')
    await itemDialog.locator('input[name="label"]').fill('Urgent')
    await itemDialog.locator('input[name="value"]').fill('urgent')
    await itemDialog.locator('input[name="sort"]').fill('1')
    await itemDialog.locator('input[name="cssClass"]').fill('error')
    await itemDialog.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Item saved').waitFor()
    const itemRow = items.locator('tbody tr', { hasText: 'urgent' })
    await itemRow.waitFor()
    assert.include(await itemRow.innerText(), 'Urgent')
    await page.screenshot({ path: `${SHOTS}/dict-items.png`, fullPage: true })
    const item = await db.from('dict_items').where({ type_code: 'ticket_priority' }).firstOrFail()
    assert.deepInclude(item, { label: 'Urgent', value: 'urgent', css_class: 'error' })
    // Every administrator reads it at once (GET /api/dicts/:code, the console's chips).
    const read = await page.evaluate(async () => {
      const response = await fetch('/api/dicts/ticket_priority', {
        headers: { Authorization: `Bearer ${localStorage.getItem('rbac.token')}` },
      })
      return (await response.json()) as { data: { items: { value: string }[] } }
    })
    assert.deepEqual(
      read.data.items.map((entry) => entry.value),
      ['urgent']
    )

    // Users: the template, then a file with a taken account checked (nothing written).
    await page.locator(`${SIDEBAR} a`, { hasText: 'Users' }).click()
    await page.locator('table tbody tr', { hasText: ADMIN_ACCOUNT }).first().waitFor()
    await page.getByRole('button', { name: 'Import' }).click()
    const dialog = page.getByRole('dialog')
    const download = page.waitForEvent('download')
    await dialog.getByRole('button', { name: 'Download the template' }).click()
    const template = await readFile((await (await download).path())!, 'utf8')
    assert.match(template, /^\uFEFF?account,nickname,email,status,roles,deptId\r\n/)

    const csv = (rows: string[]) => ({
      name: 'users.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(['account,nickname,email,deptId,roles,status', ...rows].join('\n')),
    })
    const file = dialog.locator('input[type="file"]')
    await file.setInputFiles(
      csv(['imported1,Imported One,,,,enabled', `${ADMIN_ACCOUNT},Taken,,,,enabled`])
    )
    await dialog.getByRole('button', { name: 'Check file' }).click()
    const errors = dialog.locator('[data-testid="import-errors"] tbody tr')
    await errors.first().waitFor()
    assert.equal(await errors.count(), 1)
    const cells = await errors.first().locator('td').allInnerTexts()
    assert.deepEqual(cells.slice(0, 3), ['3', 'account', 'E_CONFLICT'])
    assert.isTrue(await dialog.getByRole('button', { name: 'Import', exact: true }).isDisabled())
    await page.screenshot({ path: `${SHOTS}/import-dry-run.png` })
    assert.isNull(await User.findBy('account', 'imported1'))

    // The fixed file: checked, then imported; the password is shown once.
    await file.setInputFiles(
      csv(['imported1,Imported One,,,,enabled', 'imported2,Imported Two,,,,disabled'])
    )
    await dialog.getByRole('button', { name: 'Check file' }).click()
    await dialog.getByText('2 rows checked: ready to import').waitFor()
    await dialog.getByRole('button', { name: 'Import', exact: true }).click()
    const created = dialog.locator('[data-testid="import-created"] tbody tr')
    await created.nth(1).waitFor()
    const [account, password] = await created.first().locator('td').allInnerTexts()
    assert.equal(account, 'imported1')
    assert.isAtLeast(password.length, 16)
    await dialog.getByRole('button', { name: 'Copy all' }).click()
    await page.getByText('Copied').waitFor()
    await page.screenshot({ path: `${SHOTS}/import-done.png` })
    const user = await User.findByOrFail('account', 'imported1')
    assert.isTrue(user.mustChangePassword)
    assert.equal((await User.findByOrFail('account', 'imported2')).status, 'disabled')
    await dialog.getByRole('button', { name: 'Close' }).click()
    await page.locator('table tbody tr', { hasText: 'imported2' }).waitFor()
    await context.close()
  })

  test('the own profile and avatar from the console: a refused upload says why and stores nothing', async ({
    assert,
  }) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    const admin = await db.from('users').where('account', ADMIN_ACCOUNT).firstOrFail()
    await signIn(page, server.url, ADMIN_ACCOUNT, ADMIN_PASSWORD)
    await page.getByRole('button', { name: 'Profile' }).click()
    await page.getByRole('menuitem', { name: 'My account' }).click()
    await page.waitForURL(/#\/account$/)
    await page.locator('input[name="nickname"]').fill('Chief Admin')
    await page.locator('input[name="email"]').fill('chief@example.com')
    // A new address asks for the current password (docs/email.md, "Email change").
    await page.locator('input[name="currentPassword"]').fill(ADMIN_PASSWORD)
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Profile saved').waitFor()
    // The app bar's name comes from /me, read again.
    await page.locator('header', { hasText: 'Chief Admin' }).waitFor()
    const saved = await db.from('users').where('id', admin.id).firstOrFail()
    assert.equal(saved.nickname, 'Chief Admin')
    assert.equal(saved.email, 'chief@example.com')

    // A renamed executable: refused with the reason, nothing stored.
    const fileInput = page.locator('input[type="file"]')
    await fileInput.setInputFiles({
      name: 'avatar.png',
      mimeType: 'image/png',
      buffer: Buffer.from('MZ\x90\x00 not an image at all'),
    })
    await page.getByRole('button', { name: 'Upload' }).click()
    await page
      .getByText('This is not a PNG, JPEG, GIF or WebP image the server can read.')
      .first()
      .waitFor()
    assert.isNull(await db.from('user_avatars').where('user_id', admin.id).first())

    // A real PNG: stored as WebP and shown (fetched with the token: avatars are not public).
    const png = await sharp({
      create: { width: 300, height: 200, channels: 3, background: '#3366cc' },
    })
      .png()
      .toBuffer()
    await fileInput.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png })
    await page.getByRole('button', { name: 'Upload' }).click()
    // The pointer off the notifications (MUI holds a hovered one open): the refusal's closes.
    await page.mouse.move(0, 0)
    await page.getByText('Avatar changed').waitFor()
    const shown = page.locator('[data-testid="avatar"] img')
    await shown.waitFor()
    assert.match((await shown.getAttribute('src'))!, /^blob:/)
    assert.equal(
      await shown.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      256
    )
    // And in the app bar, from /me read again (a data URL: the identity is cached).
    const inAppBar = page.locator('header .RaUserMenu-avatar img')
    await inAppBar.waitFor()
    assert.match((await inAppBar.getAttribute('src'))!, /^data:image\/webp;base64,/)
    assert.isNotNull(await db.from('user_avatars').where('user_id', admin.id).first())
    await page.screenshot({ path: `${SHOTS}/profile.png`, fullPage: true })
    await context.close()
  })

  test('after a sign-in: the previous one and the failures since, once; own devices listed and revoked (its own signs it out); a rotated token reused is dropped; sign out forgetting the device', async ({
    assert,
  }) => {
    const admin = await db.from('users').where('account', ADMIN_ACCOUNT).firstOrFail()
    const devicesOfAdmin = () => db.from('device_tokens').where('user_id', admin.id)
    // Straight to the API (the address its credentials are bound to), as a script would sign in.
    const apiLogin = async (password: string) => {
      const response = await fetch(`http://127.0.0.1:${env.get('PORT')}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'nightly-script/1.0' },
        body: JSON.stringify({
          account: ADMIN_ACCOUNT,
          password,
          captchaToken: await freshCredential(),
        }),
      })
      return { status: response.status, body: (await response.json()) as any }
    }
    // The sign-in before the console's: a script's, from a device of its own; then two wrong
    // passwords.
    const script = await apiLogin(ADMIN_PASSWORD)
    assert.equal(script.status, 200)
    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = await apiLogin('Wrong-Passw0rd-1!')
      assert.equal(refused.body.errors[0].code, 'E_INVALID_CREDENTIALS')
    }
    const before = await db.from('users').where('id', admin.id).firstOrFail()
    assert.equal(Number(before.failed_logins), 2)

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    await signIn(page, server.url, ADMIN_ACCOUNT, ADMIN_PASSWORD)
    const notice = page.locator('[data-testid="sign-in-notice"]')
    await notice.waitFor()
    const said = await notice.innerText()
    assert.match(said, new RegExp(`Last sign-in: .+ from ${before.last_login_ip}`))
    assert.include(said, '2 failed sign-in attempts since then')
    await page.screenshot({ path: `${SHOTS}/sign-in-notice.png` })
    // Once per sign-in: a reload does not show it again.
    await page.reload()
    await page.waitForSelector(SIDEBAR, { timeout: 15_000 }) // drawn from /me
    await sleep(300)
    assert.equal(await notice.count(), 0)

    // My account, Devices: the script's and this browser's, this one marked.
    await page.getByRole('button', { name: 'Profile' }).click()
    await page.getByRole('menuitem', { name: 'My account' }).click()
    await page.getByRole('tab', { name: 'Devices' }).click()
    await page.waitForURL(/#\/account\/devices$/)
    const scriptRow = page.locator('table tbody tr', { hasText: 'nightly-script/1.0' })
    await scriptRow.waitFor()
    const current = page.locator('table tbody tr', {
      has: page.locator('[data-testid="current-device"]'),
    })
    assert.include(await current.innerText(), 'Chrome')
    assert.equal(await page.locator('table tbody tr').count(), 2)
    await page.screenshot({ path: `${SHOTS}/devices.png`, fullPage: true })
    const scriptDevice = await devicesOfAdmin()
      .where('user_agent', 'nightly-script/1.0')
      .firstOrFail()

    // Revoked: the row goes, in the database too, and the script's session ends with it.
    await scriptRow.getByRole('button', { name: 'Revoke' }).click()
    await page.getByRole('button', { name: 'Confirm' }).click()
    await page.getByText('Device revoked').waitFor()
    await scriptRow.waitFor({ state: 'detached' })
    assert.isNull(await db.from('device_tokens').where('id', scriptDevice.id).first())
    const me = await fetch(`${server.url}/api/auth/me`, {
      headers: { Authorization: `Bearer ${script.body.data.token}` },
    })
    assert.equal(me.status, 401)
    assert.lengthOf(await devicesOfAdmin(), 1)

    // The next sign-in rotates this browser's token: a new one is stored, no failures to tell.
    const deviceToken = () => page.evaluate(() => localStorage.getItem('rbac.deviceToken'))
    const superseded = await deviceToken()
    assert.isString(superseded)
    await signOut(page)
    await signIn(page, server.url, ADMIN_ACCOUNT, ADMIN_PASSWORD)
    await notice.waitFor()
    assert.equal(await page.locator('[data-testid="sign-in-failures"]').count(), 0)
    const rotated = await deviceToken()
    assert.isString(rotated)
    assert.notEqual(rotated, superseded)
    assert.lengthOf(await devicesOfAdmin(), 1)

    // The superseded token presented again (a copy in other hands): the server revokes every
    // device; the page says why and drops it, so the next attempt goes as a new browser. The
    // rotation is made older than the device's own race allows (RACE_GRACE_MS), so this is reuse.
    await db.from('device_tokens').update({ last_used_at: Date.now() - RACE_GRACE_MS - 1000 })
    await signOut(page)
    await page.evaluate((token) => localStorage.setItem('rbac.deviceToken', token!), superseded)
    await page.goto(`${server.url}/#/login`)
    await formReady(page)
    await page.locator('input[name="account"]').fill(ADMIN_ACCOUNT)
    await page
      .locator('[data-testid="captcha-error"]', {
        hasText: 'every device of the account was signed out',
      })
      .waitFor({ timeout: 30_000 })
    await page.screenshot({ path: `${SHOTS}/device-token-reused.png` })
    assert.isNull(await deviceToken())
    assert.lengthOf(await devicesOfAdmin(), 0)
    // Its "Try again" draws a slider for a new browser, and the sign-in goes through.
    await page.getByRole('button', { name: 'Try again' }).click()
    await page.waitForSelector(READY, { timeout: 60_000 })
    await page.reload()
    await signIn(page, server.url, ADMIN_ACCOUNT, ADMIN_PASSWORD)
    assert.isString(await deviceToken())
    assert.lengthOf(await devicesOfAdmin(), 1)

    // Signing out forgetting the device: revoked on the server, dropped in the browser.
    await signOutForgettingDevice(page)
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
    assert.isNull(await deviceToken())
    assert.lengthOf(await devicesOfAdmin(), 0)

    // Revoking this browser's own device from the page signs it out as well.
    await signIn(page, server.url, ADMIN_ACCOUNT, ADMIN_PASSWORD)
    await page.goto(`${server.url}/#/account/devices`)
    await current.getByRole('button', { name: 'Revoke' }).click()
    await page.getByText('This is the browser you are using').waitFor()
    await page.getByRole('button', { name: 'Confirm' }).click()
    await page.waitForURL(/#\/login/)
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
    assert.isNull(await deviceToken())
    assert.lengthOf(await devicesOfAdmin(), 0)
    const live = await db
      .from('admin_sessions')
      .where('user_id', admin.id)
      .whereNull('ended_at')
      .count('* as total')
    assert.equal(Number(live[0].total), 0)
    await context.close()
  })

  test('a page held without its list code says so; row actions at 390 px; actions the server refuses are not offered; Chinese', async ({
    assert,
  }) => {
    // A role holding the users page and its create button, not its list button.
    const page = await Menu.findByOrFail('component', 'system/user/index')
    const create = await button('system:user:create')
    const role = await Role.create({
      code: 'user_creator',
      name: 'User creator',
      status: 'enabled',
    })
    await role.related('menus').attach([...new Set([...(await chainOf(create)), page.id])])
    const creator = await createAdmin('creator1', { roles: ['user_creator'] })
    const locked = await createAdmin('locked1')
    for (let i = 0; i < 20 && !(await blockedUntil([accountKey(locked.account)])); i++) {
      await countFailure(accountKey(locked.account))
    }
    assert.isNotNull(await blockedUntil([accountKey(locked.account)]))
    await db
      .from('users')
      .whereIn('id', [creator.id, locked.id])
      .update({ password_change_required: false })

    const asCreator = await openAs(browser, server.url, creator.id)
    const lists: number[] = []
    asCreator.tab.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/admin/users') lists.push(response.status())
    })
    await asCreator.tab.locator(`${SIDEBAR} a`, { hasText: 'Users' }).click()
    const noAccess = asCreator.tab.getByTestId('no-access')
    await noAccess.getByText('No access to this list').waitFor()
    assert.include(await noAccess.innerText(), 'system:user:list')
    await sleep(1000)
    await asCreator.tab.screenshot({ path: `${SHOTS}/no-access.png` })
    assert.deepEqual(lists, [], 'no list request')
    assert.equal(await asCreator.tab.getByText(/of \d+/).count(), 0, 'no pagination footer')
    assert.equal(await asCreator.tab.locator('.MuiSnackbar-root').count(), 0, 'no error toast')
    // The create page it holds is still offered, under a singular title.
    await noAccess.getByRole('link', { name: 'Create' }).click()
    await asCreator.tab.locator('#react-admin-title', { hasText: 'Create user' }).waitFor()
    await asCreator.context.close()

    // The super admin on a phone: each row's actions sit behind its "more" button, on screen.
    const admin = await seededAdmin()
    const phone = await openAs(browser, server.url, admin.id, {
      viewport: { width: 390, height: 844 },
    })
    await phone.tab.goto(`${server.url}/#/users`)
    const rowOf = (account: string) => phone.tab.locator('table tbody tr', { hasText: account })
    const actionsOf = async (account: string) => {
      const more = rowOf(account).getByRole('button', { name: 'More actions' })
      const box = (await more.boundingBox())!
      assert.isAtMost(box.x + box.width, 390, `${account}: the actions button is on screen`)
      await more.click()
      const menu = phone.tab.getByRole('menu')
      await menu.waitFor()
      const labels = trimAll(await menu.locator('a, button').allInnerTexts())
      return { menu, labels }
    }
    let { menu, labels } = await actionsOf(locked.account)
    assert.deepEqual(labels, ['RESET PASSWORD', 'UNLOCK', 'DELETE'])
    await phone.tab.screenshot({ path: `${SHOTS}/phone-row-actions.png` })
    await menu.getByRole('button', { name: 'Unlock' }).click()
    await phone.tab.getByText('Account unlocked').waitFor()
    assert.isNull(await blockedUntil([accountKey(locked.account)]))
    await phone.tab.keyboard.press('Escape')
    // Its own row: no reset, no delete (the server refuses both); unlock stays.
    ;({ labels } = await actionsOf(ADMIN_ACCOUNT))
    assert.deepEqual(labels, [])
    await phone.tab.keyboard.press('Escape')
    await phone.tab.screenshot({ path: `${SHOTS}/phone-users.png` })

    // Online administrators: its own session offers no force logout; another one does.
    const other = await sessionToken(locked.id)
    await phone.tab.goto(`${server.url}/#/sessions`)
    await rowOf(locked.account).waitFor()
    ;({ labels } = await actionsOf(locked.account))
    assert.deepEqual(labels, ['FORCE LOGOUT'])
    await phone.tab.keyboard.press('Escape')
    ;({ labels } = await actionsOf(ADMIN_ACCOUNT))
    assert.deepEqual(labels, [])
    assert.isString(other.sessionId)
    // The menu tree: a leaf node's actions, on screen too.
    await phone.tab.goto(`${server.url}/#/menus`)
    ;({ labels } = await actionsOf('content:article:publish'))
    assert.deepEqual(labels, ['EDIT', 'DELETE'])
    await phone.tab.screenshot({ path: `${SHOTS}/phone-menus.png` })
    await phone.tab.keyboard.press('Escape')
    await phone.context.close()

    // Chinese: the switcher in the app bar; labels, titles and the choice survive a reload.
    const desk = await openAs(browser, server.url, admin.id)
    // Sorting is the server's: a column header sends `sort=field`, then `sort=-field`.
    await desk.tab.goto(`${server.url}/#/users`)
    await desk.tab.locator('table tbody tr').first().waitFor()
    for (const expected of ['account', '-account']) {
      const asked = desk.tab.waitForRequest((request) => request.url().includes('sort='))
      await desk.tab.getByRole('columnheader', { name: 'Account' }).getByRole('button').click()
      assert.equal(new URL((await asked).url()).searchParams.get('sort'), expected)
    }
    // Columns outside the allow-list are not sort buttons.
    assert.equal(
      await desk.tab
        .getByRole('columnheader', { name: 'Locked until' })
        .getByRole('button')
        .count(),
      0
    )
    await desk.tab.getByRole('button', { name: 'English' }).click()
    await desk.tab.getByRole('menuitem', { name: '简体中文' }).click()
    await desk.tab.locator(SIDEBAR).getByText('用户管理').waitFor()
    assert.deepEqual(trimAll(await sidebarHeadings(desk.tab)), ['系统管理', '内容管理', '系统监控'])
    await desk.tab.reload()
    await desk.tab.locator(`${SIDEBAR} a`, { hasText: '用户管理' }).click()
    await desk.tab.getByRole('columnheader', { name: '账号' }).waitFor()
    await desk.tab.screenshot({ path: `${SHOTS}/users-zh.png` })
    await desk.tab.goto(`${server.url}/#/users/create`)
    await desk.tab.locator('#react-admin-title', { hasText: '新建用户' }).waitFor()
    // An error in Chinese, the server's message once (E_CONFLICT: the account name is taken).
    await desk.tab.locator('input[name="account"]').fill(ADMIN_ACCOUNT)
    await desk.tab.locator('input[name="password"]').fill('Some-Passw0rd-9!')
    await desk.tab.getByRole('button', { name: '保存' }).click()
    await desk.tab
      .getByText(`账号“${ADMIN_ACCOUNT}”已存在（账号不区分大小写）`, { exact: true })
      .waitFor()
    await desk.tab.screenshot({ path: `${SHOTS}/conflict-zh.png` })
    // A 404 toast: one sentence, not the console's text and the server's side by side (a role
    // deleted while its edit page is open, then saved).
    const gone = await Role.create({ code: 'gone_soon', name: 'Gone soon' })
    await desk.tab.goto(`${server.url}/#/roles/${gone.id}`)
    await desk.tab.locator('input[name="name"]').fill('Renamed')
    await gone.delete()
    await desk.tab.getByRole('button', { name: '保存' }).click()
    await desk.tab.getByText('资源不存在', { exact: true }).waitFor()
    assert.equal(await desk.tab.getByText('未找到：可能已被删除。').count(), 0)
    await desk.tab.screenshot({ path: `${SHOTS}/not-found-zh.png` })
    await desk.context.close()
  })

  test('in Chinese, every page of the console is Chinese: no English left but data and codes', async ({
    assert,
  }) => {
    const admin = await seededAdmin()
    // Something on every list: an API token, articles, log lines of each outcome shown.
    await apiTokenFor(admin, ['system:user:list'], { name: 'nightly' })
    await ArticleFactory.merge({ authorId: admin.id }).create()
    await ArticleFactory.merge({ authorId: admin.id }).apply('scheduled').create()
    for (const outcome of ['succeeded', 'wrong_password', 'mfa_failed'] as const) {
      await LoginLog.create({
        account: ADMIN_ACCOUNT,
        userId: admin.id,
        ip: '127.0.0.1',
        userAgent: 'curl/8',
        outcome,
        count: 1,
      })
    }
    for (const outcome of ['succeeded', 'refused'] as const) {
      await AuditLog.create({
        actorId: admin.id,
        actor: ADMIN_ACCOUNT,
        tokenId: null,
        permission: 'system:user:update',
        targetType: 'user',
        targetId: String(admin.id),
        outcome,
        reason: null,
        requestId: null,
        ip: '127.0.0.1',
        count: 1,
        changes: null,
        createdAt: DateTime.now(),
      })
    }
    // A browser set to Chinese; the console still starts in English (its own choice).
    const { tab, context } = await openAs(browser, server.url, admin.id, { locale: 'zh-CN' })
    const data = collectApiWords(tab)
    // The check sees English where there is some.
    assert.includeMembers(await untranslated(tab, data), ['Welcome', 'Roles'])
    // As a user: the language menu in the app bar.
    await tab.getByRole('button', { name: 'English' }).click()
    await tab.getByRole('menuitem', { name: '简体中文' }).click()
    await tab.locator(SIDEBAR).getByText('用户管理').waitFor()
    await tab.reload()
    await tab.locator(SIDEBAR).getByText('用户管理').waitFor()

    const found: Record<string, string[]> = {}
    const look = async (name: string) => {
      await tab.waitForLoadState('networkidle')
      await tab.locator('.MuiLinearProgress-root, .MuiCircularProgress-root').first().waitFor({
        state: 'detached',
        timeout: 10_000,
      })
      await tab.screenshot({ path: `${SHOTS}/zh-${name}.png`, fullPage: true })
      const words = await untranslated(tab, data)
      if (words.length) found[name] = words
    }
    await look('dashboard')
    const links = trimAll(await sidebarLinks(tab))
    assert.lengthOf(links, 13)
    for (const link of links) {
      await tab.locator(`${SIDEBAR} a`, { hasText: link }).click()
      await tab.locator('#react-admin-title', { hasText: link }).waitFor()
      await look(new URL(tab.url()).hash.slice(2))
    }
    // The filter menu of a list (its inputs' labels).
    await tab.locator(`${SIDEBAR} a`, { hasText: '用户管理' }).click()
    await tab.getByRole('button', { name: '添加筛选' }).click()
    await look('users-filters')
    await tab.keyboard.press('Escape')
    for (const route of [
      '/users/create',
      `/users/${admin.id}`,
      '/roles/create',
      '/menus/create',
      '/depts/create',
      '/articles/create',
      '/password',
      '/account',
      '/account/2fa',
      '/account/tokens',
      '/account/devices',
    ]) {
      await tab.goto(`${server.url}/#${route}`)
      await look(route.slice(1).replaceAll('/', '-'))
    }
    // The user menu.
    await tab.locator('header button[aria-label="个人"]').click()
    await look('user-menu')
    await tab.keyboard.press('Escape')
    assert.deepEqual(found, {})
    await context.close()
  }).timeout(180_000)

  test('Monitor > API tokens: every account listed, filtered by owner, one revoked', async ({
    assert,
  }) => {
    const admin = await seededAdmin()
    const owner = await createAdmin('tokenowner1')
    await apiTokenFor(admin, ['system:user:list'], { name: 'admin script' })
    const { row } = await apiTokenFor(owner, ['system:user:list'], { name: 'owner script' })
    const { tab, context } = await openAs(browser, server.url, admin.id)
    await tab.locator(`${SIDEBAR} a`, { hasText: 'API tokens' }).click()
    await tab.waitForURL(/#\/tokens/)
    const rows = tab.locator('table tbody tr')
    await rows.filter({ hasText: 'admin script' }).waitFor()
    await rows.filter({ hasText: 'owner script' }).waitFor()
    // Filtered by the owner's account (the server's `account` filter).
    const asked = tab.waitForRequest((request) => request.url().includes('account=tokenowner1'))
    await tab.locator('input[name="account"]').fill('tokenowner1')
    await asked
    await rows.filter({ hasText: 'admin script' }).waitFor({ state: 'detached' })
    assert.deepEqual(trimAll(await rows.locator('td:nth-child(3)').allInnerTexts()), [
      'owner script',
    ])
    await tab.screenshot({ path: `${SHOTS}/api-tokens.png` })
    await rows.filter({ hasText: 'owner script' }).getByRole('button', { name: 'Revoke' }).click()
    await tab.getByText('Revoke the token "owner script" of tokenowner1?').waitFor()
    await tab.getByRole('button', { name: 'Confirm' }).click()
    await tab.getByText('Token revoked').waitFor()
    await rows.filter({ hasText: 'owner script' }).waitFor({ state: 'detached' })
    assert.isNull(await db.from('api_tokens').where('id', row.id).first())
    assert.isNotNull(await db.from('api_tokens').where('name', 'admin script').first())
    const audited = await db
      .from('audit_logs')
      .where({ target_type: 'token', target_id: String(row.id) })
      .first()
    assert.equal(audited?.permission, 'monitor:token:delete')
    await context.close()
  }).timeout(90_000)

  test('users: a department column, and the department tree filters the list to a branch', async ({
    assert,
  }) => {
    const admin = await seededAdmin()
    const root = await Dept.root()
    const sales = await Dept.create({
      name: 'Sales',
      parentId: root.id,
      sort: 1,
      status: 'enabled',
    })
    const east = await Dept.create({
      name: 'Sales East',
      parentId: sales.id,
      sort: 1,
      status: 'enabled',
    })
    const lab = await Dept.create({ name: 'Lab', parentId: root.id, sort: 2, status: 'enabled' })
    for (const [account, deptId] of [
      ['seller1', sales.id],
      ['seller2', east.id],
      ['chemist1', lab.id],
    ] as const) {
      const user = await createAdmin(account)
      await db.from('users').where('id', user.id).update({ dept_id: deptId })
    }
    const { tab, context } = await openAs(browser, server.url, admin.id)
    await tab.goto(`${server.url}/#/users`)
    const rows = tab.locator('table tbody tr')
    await rows.filter({ hasText: 'seller2' }).waitFor()
    // The column: the department's name.
    await rows.filter({ hasText: 'seller2' }).getByText('Sales East').waitFor()
    const tree = tab.locator('[data-testid="dept-filter"]')
    const accounts = async () =>
      trimAll(await rows.locator('td:nth-child(2)').allInnerTexts()).sort()

    let asked = tab.waitForRequest((request) => request.url().includes(`deptId=${sales.id}`))
    await tree.getByRole('button', { name: 'Sales', exact: true }).click()
    await asked
    await rows.filter({ hasText: 'chemist1' }).waitFor({ state: 'detached' })
    assert.deepEqual(await accounts(), ['seller1', 'seller2'])
    await tab.screenshot({ path: `${SHOTS}/users-dept-filter.png` })

    asked = tab.waitForRequest((request) => request.url().includes(`deptId=${east.id}`))
    await tree.getByRole('button', { name: 'Sales East' }).click()
    await asked
    await rows.filter({ hasText: 'seller1' }).waitFor({ state: 'detached' })
    assert.deepEqual(await accounts(), ['seller2'])

    await tree.getByRole('button', { name: 'All departments' }).click()
    await rows.filter({ hasText: 'chemist1' }).waitFor()
    assert.includeMembers(await accounts(), ['chemist1', 'seller1', 'seller2', ADMIN_ACCOUNT])
    await context.close()
  }).timeout(90_000)

  test('with no token the login page is usable at once: no /api/auth/me, no captcha before the account', async ({
    assert,
  }) => {
    for (const route of ['/', '/#/users', '/#/login']) {
      const context = await browser.newContext()
      const page = await context.newPage()
      const requests: string[] = []
      page.on('request', (request) => {
        const url = new URL(request.url())
        if (url.pathname.startsWith('/api/')) requests.push(`${request.method()} ${url.pathname}`)
      })
      await page.goto(`${server.url}${route}`)
      const readyAt = await formReady(page)
      console.log(
        `  console: ${route} without a token -> usable login form: ${Math.round(readyAt)} ms`
      )
      assert.isAtMost(readyAt, 1500, route)
      assert.match(page.url(), /#\/login$/)
      // Before the account is typed, only the public features flag (is mail on: the "Forgot
      // password?" link) and one set of passkey options (the account field's passkey autofill),
      // never the session or a captcha.
      const options = 'POST /api/auth/login/passkey/options'
      assert.deepEqual(
        requests.filter((request) => request !== 'GET /api/auth/features' && request !== options),
        [],
        `${route}: no API call but the features flag and passkey options before the account is typed`
      )
      assert.isAtMost(requests.filter((request) => request === options).length, 1)
      // Usable: typing works, and the account starts the proof of work for that account.
      const challenge = page.waitForRequest((request) =>
        request.url().includes('/api/auth/captcha?account=admin')
      )
      await page.locator('input[name="account"]').fill(ADMIN_ACCOUNT)
      await page.locator('input[name="password"]').fill('typed')
      assert.equal(await page.locator('input[name="account"]').inputValue(), ADMIN_ACCOUNT)
      await challenge
      assert.notInclude(requests, 'GET /api/auth/me')
      await context.close()
    }

    // A stale token: one /api/auth/me, answered 401, not retried; the login page follows.
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${server.url}/#/login`)
    await page.evaluate(() => localStorage.setItem('rbac.token', 'stale.token.value'))
    const meCalls: number[] = []
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/auth/me') meCalls.push(response.status())
    })
    await page.goto(`${server.url}/#/`)
    await page.reload()
    await page.waitForURL(/#\/login/)
    await formReady(page)
    await sleep(2500) // react-query's first retry would come after 1 s, the second after 3 s
    assert.deepEqual(meCalls, [401])
    assert.isNull(await page.evaluate(() => localStorage.getItem('rbac.token')))

    // The login page in Chinese, switched on the page; the console opens in it.
    await page.getByRole('button', { name: '简体中文' }).click()
    await page.getByRole('button', { name: '登录', exact: true }).waitFor()
    await page.getByLabel('账号').waitFor()
    await page.getByText('输入账号后加载拼图').waitFor()
    await sleep(300) // the buttons' colour transition
    await page.screenshot({ path: `${SHOTS}/login-zh.png` })
    assert.equal(await page.evaluate(() => localStorage.getItem('rbac.locale')), 'zh')
    const admin = await seededAdmin()
    const session = await sessionToken(admin.id)
    await page.evaluate((value) => localStorage.setItem('rbac.token', value), session.token)
    await page.goto(`${server.url}/#/`)
    await page.reload()
    await page.locator(SIDEBAR).getByText('用户管理').waitFor()
    // The session ends: the login page again, in Chinese. Switched back to English there after
    // the console's code was fetched behind it (1.5 s), the console that follows is English too.
    await db.from('admin_sessions').where('id', session.sessionId).update({ ended_at: Date.now() })
    await page.reload()
    await page.getByRole('button', { name: '登录', exact: true }).waitFor()
    await sleep(2500)
    await page.getByRole('button', { name: 'English' }).click()
    await signIn(page, server.url, ADMIN_ACCOUNT, ADMIN_PASSWORD, { stay: true })
    await page.locator(SIDEBAR).getByText('Users').waitFor()
    assert.equal(await page.evaluate(() => localStorage.getItem('rbac.locale')), 'en')
    await context.close()
  })

  test('forgot password end to end: the link read from the SMTP server sets a new password that signs in', async ({
    assert,
  }) => {
    const user = await createAdmin('mailbox1')
    user.email = 'mailbox1@example.test'
    await user.save()
    user.emailVerifiedAt = DateTime.now()
    await user.save()
    clearInbox()
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    let page = await context.newPage()
    await page.goto(`${server.url}/#/login`)
    await page.getByRole('button', { name: 'Forgot password?' }).click()
    const slider = nextSlider(page)
    await page.locator('input[name="mailAccount"]').fill('mailbox1')
    const { data } = await (await slider).json()
    await page.waitForSelector(READY)
    await humanDrag(page, HANDLE, await challengeAnswer(data.captchaId))
    await page.waitForSelector('[data-testid="captcha"][data-captcha-state="verified"]')
    await page.getByRole('button', { name: 'Send the link' }).click()
    await page.locator('[data-testid="mail-sent"]').waitFor()

    // The mail's link opens in a new tab.
    const mail = await waitForMail('mailbox1@example.test')
    await page.close()
    page = await context.newPage()
    await page.goto(`${server.url}/#/reset-password?token=${tokenIn(mail, 'reset-password')}`)
    await page.locator('input[name="newPassword"]').fill('Mailed-Horse-Battery-7')
    await page.locator('input[name="repeatPassword"]').fill('Mailed-Horse-Battery-7')
    await page.getByRole('button', { name: 'Set the password' }).click()
    await page.locator('[data-testid="reset-done"]').waitFor()
    await page.screenshot({ path: `${SHOTS}/password-reset.png` })
    await page.getByRole('button', { name: 'Go to sign in' }).click()
    await page.waitForURL(/#\/login/)
    await signIn(page, server.url, 'mailbox1', 'Mailed-Horse-Battery-7', { stay: true })
    assert.equal((await User.findOrFail(user.id)).tokenVersion, user.tokenVersion + 1)
    await context.close()
  })

  test('an email change undone from the link mailed to the replaced address', async ({
    client,
    assert,
  }) => {
    const user = await createAdmin('mailbox3')
    user.email = 'mailbox3@example.test'
    user.emailVerifiedAt = DateTime.now()
    await user.save()
    clearInbox()
    const { token } = await sessionToken(user.id, user.tokenVersion)
    const changed = await client
      .put('/api/auth/profile')
      .bearerToken(token)
      .json({ email: 'intruder@example.test', currentPassword: TEST_PASSWORD })
    changed.assertStatus(200)
    const mail = await waitForMail('mailbox3@example.test')

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    await page.goto(`${server.url}/#/undo-email?token=${tokenIn(mail, 'undo-email')}`)
    await page.getByText('Undo the email change').first().waitFor()
    await page.locator('input[name="newPassword"]').fill('Undone-Horse-Battery-7')
    await page.locator('input[name="repeatPassword"]').fill('Undone-Horse-Battery-7')
    await page.getByRole('button', { name: 'Undo and set the password' }).click()
    await page.locator('[data-testid="reset-done"]').waitFor()
    const after = await User.findOrFail(user.id)
    assert.equal(after.email, 'mailbox3@example.test')
    assert.isTrue(after.emailVerified)
    assert.equal(after.tokenVersion, user.tokenVersion + 1)
    await context.close()
  })

  test('a locked account signs in through a device link sent from the login page', async ({
    assert,
  }) => {
    const user = await createAdmin('mailbox2')
    user.email = 'mailbox2@example.test'
    await user.save()
    user.emailVerifiedAt = DateTime.now()
    await user.save()
    clearInbox()
    for (let i = 0; i < adminAuthConfig.limits.loginAccountCap; i++) {
      await consume(ceilingKey('mailbox2'))
    }
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    let page = await context.newPage()
    // The password is refused for this new browser: the page offers a sign-in link.
    await page.goto(`${server.url}/#/login`)
    let slider = nextSlider(page)
    await page.locator('input[name="account"]').fill('mailbox2')
    await page.locator('input[name="password"]').fill(TEST_PASSWORD)
    let { data } = await (await slider).json()
    await page.waitForSelector(READY)
    await humanDrag(page, HANDLE, await challengeAnswer(data.captchaId))
    await page.waitForSelector('[data-testid="captcha"][data-captcha-state="verified"]')
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.getByRole('button', { name: 'Send me a sign-in link for this browser' }).click()
    slider = nextSlider(page)
    data = (await (await slider).json()).data
    await page.waitForSelector(READY)
    await humanDrag(page, HANDLE, await challengeAnswer(data.captchaId))
    await page.waitForSelector('[data-testid="captcha"][data-captcha-state="verified"]')
    await page.getByRole('button', { name: 'Send the link' }).click()
    await page.locator('[data-testid="mail-sent"]').waitFor()

    const mail = await waitForMail('mailbox2@example.test')
    await page.close()
    page = await context.newPage()
    await page.goto(`${server.url}/#/enrol-device?token=${tokenIn(mail, 'enrol-device')}`)
    await page.getByRole('button', { name: 'Trust this browser' }).click()
    await page.locator('[data-testid="enrolled"]').waitFor()
    assert.isNotNull(await page.evaluate(() => localStorage.getItem('rbac.deviceToken')))
    await page.getByRole('button', { name: 'Go to sign in' }).click()
    await page.waitForURL(/#\/login/)
    assert.equal(await page.locator('input[name="account"]').inputValue(), 'mailbox2')
    await signIn(page, server.url, 'mailbox2', TEST_PASSWORD)
    assert.lengthOf(await db.from('device_tokens').where('user_id', user.id), 1)
    await context.close()
  })

  test('a passkey added in the console is the second step and the way through a locked account', async ({
    assert,
  }) => {
    // WebAuthn needs a secure context: the console on http://localhost, the relying party's origin.
    const base = server.urlAs('localhost')
    const relyingParty = { ...adminAuthConfig.passkeys }
    Object.assign(adminAuthConfig.passkeys, { rpId: 'localhost', origin: base })
    const user = await createAdmin('keyholder')
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    try {
      const page = await context.newPage()
      await withoutPasskeyAutofill(page)
      const authenticator = await virtualAuthenticator(page)
      await signIn(page, base, 'keyholder', TEST_PASSWORD)
      await page.goto(`${base}/#/account/2fa`)
      const card = page.locator('[data-testid="passkeys"]')
      await card.getByText('No passkey yet.').waitFor()
      await card.getByLabel('Name').fill('Work laptop')
      await card.getByLabel('Current password').fill(TEST_PASSWORD)
      await card.getByRole('button', { name: 'Add a passkey' }).click()
      await page.getByText('Passkey added').waitFor()
      await card.locator('tbody tr', { hasText: 'Work laptop' }).waitFor()
      // /me and the identity are read again (a passkey settles AUTH_REQUIRE_2FA): a user menu
      // opened while they land is drawn again under the pointer.
      await apiSettled(page)
      await page.screenshot({ path: `${SHOTS}/passkeys.png`, fullPage: true })
      const [stored] = await db.from('passkeys').where('user_id', user.id)
      assert.equal(stored.name, 'Work laptop')
      assert.lengthOf(await authenticator.credentials(), 1)

      // Signed out and back in: after the password, the passkey instead of a code.
      await signOut(page)
      await signIn(page, base, 'keyholder', TEST_PASSWORD, { secondStep: { passkey: true } })
      assert.isNotNull(
        (await db.from('passkeys').where('id', stored.id).firstOrFail()).last_used_at
      )

      // The account at its ceiling, and this browser no longer a known device (its token would
      // pass): the password alone is refused, the page offers the passkey, which (with a fresh
      // slider and the password) signs in.
      await signOutForgettingDevice(page)
      for (let i = 0; i < adminAuthConfig.limits.loginAccountCap; i++) {
        await consume(ceilingKey('keyholder'))
      }
      await page.goto('about:blank')
      await page.goto(`${base}/#/login`)
      let slider = nextSlider(page)
      await page.locator('input[name="account"]').fill('keyholder')
      await page.locator('input[name="password"]').fill(TEST_PASSWORD)
      await solveSlider(page, slider)
      slider = nextSlider(page)
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      const offer = page.getByRole('button', { name: 'Sign in with a passkey (and the password)' })
      await offer.waitFor()
      await page.screenshot({ path: `${SHOTS}/passkey-locked.png` })
      await solveSlider(page, slider)
      await offer.click()
      await page.waitForSelector(SIDEBAR, { timeout: 15_000 })
      const signedIn = await db
        .from('login_logs')
        .where('account', 'keyholder')
        .orderBy('id', 'desc')
        .firstOrFail()
      assert.equal(signedIn.outcome, 'succeeded')
    } finally {
      Object.assign(adminAuthConfig.passkeys, relyingParty)
      await context.close()
    }
  })

  test('the login page signs in with a passkey alone: by autofill or the button', async ({
    assert,
  }) => {
    const base = server.urlAs('localhost')
    const relyingParty = { ...adminAuthConfig.passkeys }
    Object.assign(adminAuthConfig.passkeys, { rpId: 'localhost', origin: base })
    const user = await createAdmin('keyonly')
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    try {
      const page = await context.newPage()
      await virtualAuthenticator(page)
      await signIn(page, base, 'keyonly', TEST_PASSWORD)
      await page.goto(`${base}/#/account/2fa`)
      const card = page.locator('[data-testid="passkeys"]')
      await card.getByText('No passkey yet.').waitFor()
      await card.getByLabel('Name').fill('Laptop')
      await card.getByLabel('Current password').fill(TEST_PASSWORD)
      await card.getByRole('button', { name: 'Add a passkey' }).click()
      await page.getByText('Passkey added').waitFor()
      await apiSettled(page)
      const passkeyRequests: string[] = []
      page.on('request', (request) => {
        const path = new URL(request.url()).pathname
        if (path.startsWith('/api/auth/login/passkey')) passkeyRequests.push(path)
      })
      const lastLogin = async () =>
        (await db.from('login_logs').where('user_id', user.id).orderBy('id', 'desc').firstOrFail())
          .outcome
      /** Signed out, this browser forgotten: the login page alone, nothing typed. */
      const toLoginPage = async () => {
        await signOutForgettingDevice(page)
        await page.goto('about:blank')
        passkeyRequests.length = 0
        await page.goto(`${base}/#/login`)
      }

      // Autofill (conditional mediation): the page asks for options once, the account field
      // offers the passkey; the virtual authenticator picks it as a person would.
      await toLoginPage()
      assert.equal(
        await page.locator('input[name="account"]').getAttribute('autocomplete'),
        'username webauthn'
      )
      await page.waitForSelector(SIDEBAR, { timeout: 15_000 })
      assert.deepEqual(passkeyRequests, [
        '/api/auth/login/passkey/options',
        '/api/auth/login/passkey',
      ])
      assert.equal(await lastLogin(), 'passkey_login')

      // Without autofill: the button.
      await withoutPasskeyAutofill(page)
      await toLoginPage()
      await page.getByRole('button', { name: 'Sign in with a passkey', exact: true }).click()
      await page.waitForSelector(SIDEBAR, { timeout: 15_000 })
      assert.deepEqual(passkeyRequests, [
        '/api/auth/login/passkey/options',
        '/api/auth/login/passkey',
      ])
      assert.lengthOf(
        await db.from('login_logs').where({ user_id: user.id, outcome: 'passkey_login' }),
        2
      )
    } finally {
      Object.assign(adminAuthConfig.passkeys, relyingParty)
      await context.close()
    }
  })

  test('signs in through the keyboard path of the slider', async ({ assert }) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    const verifies: any[] = []
    page.on('request', (request) => {
      if (request.url().endsWith('/api/auth/captcha/verify')) verifies.push(request.postDataJSON())
    })
    await page.goto(`${server.url}/#/login`)
    const handle = page.locator(HANDLE)
    assert.equal(await handle.getAttribute('tabindex'), '0')
    assert.equal(await handle.getAttribute('aria-valuemin'), '0')
    assert.isNotEmpty(await handle.getAttribute('aria-label'))
    await signIn(page, server.url, ADMIN_ACCOUNT, ADMIN_PASSWORD, { keyboard: true })
    assert.lengthOf(verifies, 1)
    const [body] = verifies
    assert.equal(body.input, 'keyboard')
    assert.isAbove(body.track.length, 5)
    assert.isTrue(body.track.every(([, y]: number[]) => y === 0))
    assert.equal(body.track[body.track.length - 1][0], body.x)
    await context.close()
  })

  test('the proof of work outlasts a moment without WebAssembly memory (a sign-in goes through)', async ({
    assert,
  }) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    await page.goto(`${server.url}/#/login`)
    // Another worker of the page holds every WebAssembly memory the process may reserve (V8's
    // cap, shared by the page's workers), as garbage memories do until a collection frees them.
    const held: number = await page.evaluate(`new Promise((resolve) => {
      const source = 'const kept = []; try { for (;;) kept.push(new WebAssembly.Memory({ initial: 1 })) } catch {}; postMessage(kept.length)'
      window.hog = new Worker(URL.createObjectURL(new Blob([source])))
      window.hog.onmessage = (event) => resolve(event.data)
    })`)
    assert.isAbove(held, 10)
    const challenge = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/auth/captcha'
    )
    const slider = nextSlider(page)
    await page.locator('input[name="account"]').fill(ADMIN_ACCOUNT)
    await page.locator('input[name="password"]').fill(ADMIN_PASSWORD)
    await challenge
    // The solving workers meet the full space; a second later it is free again.
    await sleep(1000)
    assert.equal(await page.locator('[data-testid="captcha-error"]').count(), 0)
    await page.evaluate('window.hog.terminate()')
    await solveSlider(page, slider)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.waitForSelector(SIDEBAR)
    await context.close()
  })

  test('the whole login works on a plain-http origin that is not localhost (no WebCrypto)', async ({
    assert,
  }) => {
    const base = server.urlAs('admin.test')
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    await page.goto(`${base}/#/login`)
    const origin = await page.evaluate(
      '({ isSecureContext: window.isSecureContext, subtle: typeof globalThis.crypto.subtle })'
    )
    assert.deepEqual(origin, { isSecureContext: false, subtle: 'undefined' })
    await page.goto('about:blank')
    await signIn(page, base, ADMIN_ACCOUNT, ADMIN_PASSWORD)
    assert.include(trimAll(await sidebarLinks(page)), 'Users')
    await context.close()
  })

  test('proof of work solve time in the page, at the default parameters (printed, not asserted)', async ({
    assert,
  }) => {
    const runs = Number(process.env.POW_RUNS ?? 10)
    const result = await measurePowInChromium(browser, server.urlAs('admin.test'), runs)
    console.log(`  console: proof of work in Chromium (plain http): ${powSummary(result)}`)
    assert.equal(result.verified, runs)
    assert.isFalse(result.isSecureContext)
  }).timeout(600_000)
})
