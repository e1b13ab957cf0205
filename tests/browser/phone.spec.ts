import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import type { Browser, Locator, Page } from 'playwright-core'
import env from '#start/env'
import { withRealCommits } from '#tests/helpers/database'
import { seededAdmin } from '#tests/helpers/rbac'
import { failHangsAtTheirLine, launchChromium, openAs } from '#tests/helpers/browser'
import { startConsoleServer, type ConsoleServer } from '#tests/helpers/console_server'

/**
 * The console on a phone (390 x 844, an iPhone 12-14's CSS viewport): every page the sidebar
 * links to, and each create page, fits the screen's width (no sideways scroll of the page), and
 * a dialog's buttons are on screen and usable as they are.
 */
const DIST = app.makePath('console/dist')
const SHOTS = app.makePath('tmp/browser')
const PHONE = { width: 390, height: 844 }
const SIDEBAR = '[data-testid="sidebar"]'

/** The page settled: no request pending, no progress shown. */
async function settled(tab: Page) {
  await tab.waitForLoadState('networkidle')
  await tab.locator('.MuiLinearProgress-root, .MuiCircularProgress-root').first().waitFor({
    state: 'detached',
    timeout: 10_000,
  })
}

/** How wide the page is, and what sticks out past the screen's right edge (for the message). */
const overflow = (tab: Page) =>
  tab.evaluate(`(() => {
    const sticksOut = (element) => element.getBoundingClientRect().right > window.innerWidth + 1
    // The innermost ones: what makes the page wide, not its containers.
    const out = [...document.querySelectorAll('body *')]
      .filter((element) => sticksOut(element) && ![...element.children].some(sticksOut))
      .slice(0, 5)
      .map((element) => element.tagName.toLowerCase() + '.' + [...element.classList].join('.'))
    return { width: document.scrollingElement.scrollWidth, out }
  })()`) as Promise<{ width: number; out: string[] }>

/**
 * Links and buttons in the page with nothing to see (no text, no icon, or no size): a
 * react-admin Button without an icon on a phone draws its icon alone, so an empty circle.
 */
const unseen = (tab: Page) =>
  tab.evaluate(`[...document.querySelectorAll('.RaLayout-content a, .RaLayout-content button')]
    .filter((element) => {
      const box = element.getBoundingClientRect()
      const drawn = element.innerText.trim() !== '' || element.querySelector('svg, img')
      return box.width === 0 || box.height === 0 || !drawn
    })
    .map((element) => element.getAttribute('aria-label') || element.outerHTML.slice(0, 80))`) as Promise<
    string[]
  >

/** The element's box lies inside the viewport. */
async function onScreen(locator: Locator) {
  const box = (await locator.boundingBox())!
  return (
    box.x >= 0 &&
    box.y >= 0 &&
    box.x + box.width <= PHONE.width &&
    box.y + box.height <= PHONE.height
  )
}

test.group('Console on a phone', (group) => {
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
    browser = await launchChromium()
    return async () => {
      await browser?.close()
      await server?.close()
    }
  })

  test('every sidebar page and create page fits 390 px; the import dialog shows its buttons', async ({
    assert,
  }) => {
    const admin = await seededAdmin()
    const { tab, context } = await openAs(browser, server.url, admin.id, { viewport: PHONE })

    // The pages are the sidebar's links (a drawer behind the app bar's menu button on a phone).
    await tab.getByRole('button', { name: 'Open menu' }).click()
    const hrefs = await tab
      .locator(`${SIDEBAR} a`)
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')!))
    await tab.keyboard.press('Escape')
    assert.isAbove(hrefs.length, 10, 'the super admin sees every page')
    // And the own pages: the user menu's links (the account's tabs are found on its page).
    await tab.getByRole('button', { name: 'Profile' }).click()
    const own = await tab
      .getByRole('menu')
      .locator('a')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')!))
    await tab.keyboard.press('Escape')
    assert.includeMembers(own, ['#/account', '#/password'])
    // No tooltip left over the pages' screenshots (the menu gives the focus back to its button).
    await tab.mouse.move(200, 600)
    await tab.evaluate('document.activeElement.blur()')

    const wide: Record<string, { width: number; out: string[] }> = {}
    const invisible: Record<string, string[]> = {}
    const look = async (route: string) => {
      await tab.goto(`${server.url}/${route}`)
      await tab.locator('#react-admin-title').first().waitFor()
      await settled(tab)
      const name = route.replace(/^#\//, '').replaceAll('/', '-')
      await tab.screenshot({ path: `${SHOTS}/phone-${name}.png` })
      const measured = await overflow(tab)
      if (measured.width > PHONE.width + 1) wide[route] = measured
      const hidden = await unseen(tab)
      if (hidden.length) invisible[route] = hidden
    }
    const creates: string[] = []
    for (const href of hrefs) {
      await look(href)
      // Its create page, where the list offers one (react-admin's Create button).
      const create = tab.locator(`a[href="${href}/create"]`)
      if (await create.count()) creates.push(`${href}/create`)
    }
    assert.includeMembers(creates, ['#/users/create', '#/roles/create', '#/menus/create'])
    for (const route of creates) await look(route)
    const seen = new Set(hrefs)
    for (const route of own) {
      if (seen.has(route)) continue
      seen.add(route)
      await look(route)
      // The account page's tabs (links), each a page of its own.
      const tabs = await tab
        .locator('a[role="tab"]')
        .evaluateAll((links) => links.map((link) => link.getAttribute('href')!))
      own.push(...tabs)
    }
    assert.includeMembers([...seen], ['#/account/2fa', '#/account/tokens', '#/account/devices'])
    assert.deepEqual(wide, {}, `pages wider than the phone: ${JSON.stringify(wide)}`)
    assert.deepEqual(invisible, {}, `controls drawn as nothing: ${JSON.stringify(invisible)}`)

    // A dictionary's items (the panel under its row): their actions drawn, the item dialog's too.
    await tab.goto(`${server.url}/#/dicts`)
    await tab.locator('tr', { hasText: 'sys_user_status' }).locator('[aria-label="Expand"]').click()
    const items = tab.getByTestId('dict-items-sys_user_status')
    await items.locator('tbody tr').first().waitFor()
    assert.deepEqual(await unseen(tab), [], 'every control of the items drawn')
    await items.getByRole('button', { name: 'Add item' }).click()
    const itemDialog = tab.getByRole('dialog')
    await itemDialog.waitFor()
    await tab.waitForTimeout(300) // the dialog's transition
    for (const name of ['Cancel', 'Save']) {
      assert.isTrue(await onScreen(itemDialog.getByRole('button', { name })), `${name} on screen`)
    }
    await itemDialog.getByRole('button', { name: 'Cancel' }).click()
    await itemDialog.waitFor({ state: 'detached' })

    // Access review: its tabs all on screen (none cut off), the last one usable.
    await tab.goto(`${server.url}/#/access`)
    for (const name of ['By account', 'By permission code', 'Changes']) {
      assert.isTrue(await onScreen(tab.getByRole('tab', { name })), `the ${name} tab is on screen`)
    }
    await tab.getByRole('tab', { name: 'Changes' }).click()
    await tab.getByTestId('access-changes').waitFor()
    // Its matrix exports in either format, from a menu.
    await tab.getByRole('button', { name: 'Export matrix' }).click()
    const saved = tab.waitForEvent('download')
    await tab.getByRole('menuitem', { name: 'Excel workbook (.xlsx)' }).click()
    assert.match((await saved).suggestedFilename(), /^access-matrix-[\d-]+\.xlsx$/)

    // Users > Import: a plain click opens it; its buttons are on screen and take a plain click.
    await tab.goto(`${server.url}/#/users`)
    await settled(tab)
    await tab.getByRole('button', { name: 'Import' }).click()
    const dialog = tab.getByRole('dialog')
    await dialog.waitFor()
    await tab.waitForTimeout(300) // the dialog's transition
    await tab.screenshot({ path: `${SHOTS}/phone-users-import.png` })
    for (const name of ['Cancel', 'Check file', 'Import']) {
      const action = dialog.getByRole('button', { name, exact: true })
      assert.isTrue(await onScreen(action), `${name} is on screen`)
    }
    await dialog.locator('input[type="file"]').setInputFiles({
      name: 'users.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('account,nickname\nphone_user1,Phone\n'),
    })
    await dialog.getByRole('button', { name: 'Check file', exact: true }).click()
    await dialog.getByTestId('import-summary').waitFor()
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click()
    await dialog.waitFor({ state: 'detached' })
    await context.close()
  }).timeout(120_000)
})
