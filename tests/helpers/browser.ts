import { existsSync } from 'node:fs'
import type { Group } from '@japa/runner/core'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Page,
  type Request,
} from 'playwright-core'
import db from '@adonisjs/lucid/services/db'
import { drawGate, hashGate } from '#core/cpu_gates'
import { sessionToken } from '#tests/helpers/auth'
import pg from 'pg'
import env from '#start/env'
import { pgConnection } from '#tests/helpers/pg_database'
import { until } from '#tests/helpers/until'

/** Debian's Chromium (apt install chromium); playwright-core drives it, no browser download. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/**
 * `hostMap`: host names resolved to the loopback (Chromium's --host-resolver-rules), so a page
 * can be served from a plain-http origin that is not localhost: a non-secure context, where
 * crypto.subtle is undefined, as on an intranet console reached as http://admin.example.
 * `address`: where they resolve (default 127.0.0.1; `[::1]` for the IPv6 loopback).
 */
export async function launchChromium(
  options: { hostMap?: string[]; address?: string } = {}
): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: apt-get install chromium (or set CHROMIUM_PATH)`)
  }
  // launch() gives a fresh temporary profile; each newContext() is a clean, isolated session.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(options.hostMap?.length
        ? [
            `--host-resolver-rules=${options.hostMap.map((host) => `MAP ${host} ${options.address ?? '127.0.0.1'}`).join(',')}`,
          ]
        : []),
    ],
  })
  // Every context records its requests and errors, for a test that fails (testReport).
  const newContext = browser.newContext.bind(browser)
  browser.newContext = async (...args) => recordApiTraffic(await newContext(...args))
  return browser
}

/** One request: `status` is the answer's or the failure's text; without `ms` it is open. */
type Exchange = { method: string; path: string; at: number; ms?: number; status?: number | string }
type Watched = { context: BrowserContext; pages: Page[]; log: Exchange[]; errors: string[] }
/** The contexts opened since the current test began (closed ones too: a finally closes them). */
let watched: Watched[] = []

function recordApiTraffic(context: BrowserContext) {
  const seen: Watched = { context, pages: [], log: [], errors: [] }
  watched.push(seen)
  context.on('page', (page) => seen.pages.push(page))
  const open = new Map<Request, Exchange>()
  const end = (request: Request, status: number | string | undefined) => {
    const exchange = open.get(request)
    if (!exchange) return
    open.delete(request)
    exchange.ms = Date.now() - exchange.at
    exchange.status = status
  }
  // Every request (one left open holds off 'networkidle'), data: URLs aside.
  context.on('request', (request) => {
    if (request.url().startsWith('data:')) return
    const path = new URL(request.url()).pathname
    const exchange = { method: request.method(), path, at: Date.now() }
    open.set(request, exchange)
    seen.log.push(exchange)
  })
  context.on('requestfinished', async (request) =>
    end(request, (await request.response().catch(() => null))?.status())
  )
  context.on('requestfailed', (request) => end(request, request.failure()?.errorText))
  const note = (text: string) =>
    seen.errors.push(`${new Date().toISOString().slice(11, 23)} ${text.slice(0, 300)}`)
  context.on('weberror', (error) => note(`page error: ${error.error().message}`))
  context.on('console', (message) => {
    if (message.type() === 'error') note(`console: ${message.text()}`)
  })
  return context
}

/**
 * The page's /api requests all answered, and none started for `quietMs`: what 'networkidle' is
 * waited for, which a page that solved a captcha may never reach: Playwright can leave the request
 * of a proof-of-work worker's script open for good (seen after 1 sign-in in 15).
 */
export async function apiSettled(page: Page, { quietMs = 500, timeout = 15_000 } = {}) {
  const seen = watched.find((entry) => entry.context === page.context())
  if (!seen) throw new Error('apiSettled: a page of a context from launchChromium only')
  const api = () => seen.log.filter((e) => e.path.startsWith('/api/'))
  const open = () => api().filter((e) => e.ms === undefined)
  const quiet = () =>
    !open().length && Date.now() - Math.max(0, ...api().map((e) => e.at + e.ms!)) >= quietMs
  await until("the page's /api requests to settle", quiet, {
    timeoutMs: timeout,
    everyMs: 100,
  }).catch((error: Error) => {
    const paths = open().map((e) => `${e.method} ${e.path}`)
    throw new Error(`${error.message}; still open: ${paths.join(', ') || 'none (still busy)'}`)
  })
}

/** The event loop's longest stall in the current test: the app and its tests share it. */
const loopDelay = monitorEventLoopDelay({ resolution: 20 })

/** What the app in this process was doing: its database pool, CPU gates, event loop. */
function serverReport() {
  const pool = (db.manager.get(db.primaryConnectionName)?.connection as any)?.pool
  const poolState = pool
    ? `used ${pool.numUsed()}, free ${pool.numFree()}, waiting ${pool.numPendingAcquires()}`
    : 'not open'
  const gates = `hash ${JSON.stringify(hashGate.load)}, draw ${JSON.stringify(drawGate.load)}`
  const stall = Math.round(loopDelay.max / 1e6)
  return `server: db pool ${poolState}; gates ${gates}; longest event-loop stall ${stall} ms`
}

/** The captcha's state and text on a page; bounded, as a stuck page may not answer. */
function captchaState(page: Page) {
  if (page.isClosed()) return Promise.resolve('(page closed)')
  const read = page
    .locator('[data-testid="captcha"]')
    .evaluateAll((nodes) =>
      nodes.map(
        (node) =>
          `${node.getAttribute('data-captcha-state')}/${node.getAttribute('data-pow')} ` +
          `"${(node as unknown as { innerText: string }).innerText.replace(/\s+/g, ' ').trim()}"`
      )
    )
    .then((states) => states.join('; ') || 'none')
  const late = new Promise<string>((resolve) => setTimeout(() => resolve('no answer in 2 s'), 2000))
  return Promise.race([read, late]).catch((error: Error) => `unreadable: ${error.message}`)
}

/**
 * Where the pages of the test's last three contexts were: URL and captcha, requests still open,
 * the last /api answers, errors; then the app's side (serverReport).
 */
async function testReport() {
  const now = Date.now()
  const line = (e: Exchange) =>
    e.ms === undefined
      ? `open: ${e.method} ${e.path}, for ${now - e.at} ms`
      : `${e.status}: ${e.method} ${e.path} in ${e.ms} ms, ${now - e.at - e.ms} ms ago`
  const lines: string[] = []
  for (const { pages, log, errors } of watched.slice(-3)) {
    for (const page of pages) lines.push(`page ${page.url()}; captcha ${await captchaState(page)}`)
    lines.push(...log.filter((e) => e.ms === undefined).map((e) => `  ${line(e)}`))
    const answered = log.filter((e) => e.ms !== undefined && e.path.startsWith('/api/'))
    lines.push(...answered.slice(-6).map((e) => `  ${line(e)}`))
    lines.push(...errors.slice(-5).map((text) => `  ${text}`))
  }
  lines.push(serverReport())
  return lines.map((text) => `  report: ${text}`).join('\n')
}

/**
 * The user menu's "Sign out and forget this device", until the console has reloaded on its login
 * page (authProvider.logout sets `#/login`, then reloads): a navigation started before that
 * reload is interrupted by it.
 */
export async function signOutForgettingDevice(page: Page) {
  await page.getByRole('button', { name: 'Profile' }).click()
  const reloaded = page.waitForEvent('load')
  await page.getByRole('menuitem', { name: 'Sign out and forget this device' }).click()
  await reloaded
  await page.waitForURL(/#\/login/)
}

/**
 * A browser test that hangs on an await with no timeout of its own (evaluate, the mouse, a
 * context's close) ends in japa's bare "Test timeout", which names neither the line nor the page.
 * Ten seconds before that, this closes the browser's contexts with a reason that lists the open
 * pages: the pending call then fails at its own line, and says where the pages were. A failed
 * test (a wait run out included) prints where its pages and the app were (testReport).
 */
export function failHangsAtTheirLine(group: Group, browser: () => Browser | undefined) {
  group.each.setup((test) => {
    watched = []
    loopDelay.reset()
    loopDelay.enable()
    const timeout = test.options.timeout
    const timer =
      timeout && timeout >= 20_000
        ? setTimeout(async () => {
            const contexts = browser()?.contexts() ?? []
            const pages = contexts.flatMap((context) => context.pages().map((page) => page.url()))
            const reason = `still running ${timeout / 1000 - 10} s in; pages open: ${pages.join(', ') || 'none'}`
            console.error(`  hang: ${reason}\n${await testReport()}`)
            // A wait no page can end (a statement waiting on a lock) shows in PostgreSQL's activity.
            if (env.get('DB_CONNECTION') === 'pg') printPgActivity().catch(() => {})
            for (const context of contexts) context.close({ reason }).catch(() => {})
          }, timeout - 10_000)
        : undefined
    return async (hasError: boolean) => {
      clearTimeout(timer)
      if (hasError) console.error(`  failed: ${test.title}\n${await testReport()}`)
      loopDelay.disable()
    }
  })
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The test database's other sessions, on a connection of its own (the pools may be stuck). */
async function printPgActivity() {
  const client = new pg.Client(pgConnection(env.get('PG_DB_NAME') ?? 'adonis_rbac_test'))
  await client.connect()
  try {
    const { rows } = await client.query(
      `SELECT pid, state, wait_event_type, wait_event, now() - query_start AS running,
              left(query, 160) AS query
         FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`
    )
    for (const row of rows) console.error(`  hang: pg ${JSON.stringify(row)}`)
  } finally {
    await client.end()
  }
}

/**
 * Drags the captcha handle `distance` pixels to the right the way a person does: speed rises and
 * falls (smoothstep), the hand wobbles vertically, event intervals are uneven and longer at the
 * end, where people slow down to aim. Seeded, so a failure can be replayed.
 */
export async function humanDrag(page: Page, selector: string, distance: number, seed = 7) {
  let state = seed
  const random = () => (state = (state * 48271) % 2147483647) / 2147483647
  const box = await page.locator(selector).boundingBox()
  if (!box) throw new Error(`${selector} is not visible`)
  const startX = box.x + box.width / 2
  const startY = box.y + box.height / 2
  await page.mouse.move(startX, startY)
  await page.mouse.down()
  const steps = 28 + Math.floor(random() * 8)
  for (let i = 1; i <= steps; i++) {
    const progress = i / steps
    const eased = progress * progress * (3 - 2 * progress)
    const wobble = i === steps ? 0 : (random() - 0.5) * 4
    await page.mouse.move(startX + eased * distance, startY + wobble + Math.sin(i / 3) * 1.5)
    await sleep(10 + random() * 18 + (progress > 0.8 ? 25 : 0))
  }
  await page.mouse.move(startX + distance, startY + 1)
  await sleep(60)
  await page.mouse.up()
}

/**
 * Chromium's virtual authenticator (CDP WebAuthn domain) on the page's target: a platform
 * authenticator (ctap2, internal transport) that keeps resident keys and verifies its user, as a
 * laptop's fingerprint reader does. Its credentials live as long as the page's target.
 */
export async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable', { enableUI: false })
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  return {
    credentials: async () =>
      (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  }
}

/** A console tab signed in as `userId` (a real session, no captcha: the login has its tests). */
export async function openAs(
  browser: Browser,
  base: string,
  userId: number,
  options: { viewport?: { width: number; height: number }; locale?: string } = {}
) {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 800 },
    locale: options.locale,
  })
  const tab = await context.newPage()
  const { token, sessionId } = await sessionToken(userId)
  await tab.goto(`${base}/#/login`)
  await tab.evaluate((value) => localStorage.setItem('rbac.token', value), token)
  await tab.goto(`${base}/#/`)
  await tab.reload()
  await tab.getByText('Welcome,').waitFor() // the dashboard (a phone hides the sidebar)
  return { context, tab, sessionId }
}
