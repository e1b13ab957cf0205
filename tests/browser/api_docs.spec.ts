import { mkdirSync } from 'node:fs'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import type { Browser, BrowserContext } from 'playwright-core'
import env from '#start/env'
import { SCALAR_SCRIPT } from '#openapi/reference_assets'
import { failHangsAtTheirLine, launchChromium } from '#tests/helpers/browser'

/**
 * The reference page at /api/docs in Chromium, offline: every request to another origin is
 * aborted (and recorded), so the page must render from what the app serves itself, Scalar's
 * bundle included; a changed bundle must be refused by its pinned digest.
 */
const SHOTS = app.makePath('tmp/browser')
const ORIGIN = `http://127.0.0.1:${env.get('PORT')}`

async function openDocs(context: BrowserContext, tamper = false) {
  const elsewhere: string[] = []
  await context.route('**/*', async (route) => {
    const url = route.request().url()
    if (!url.startsWith(ORIGIN + '/')) {
      elsewhere.push(url)
      return route.abort()
    }
    if (tamper && url.endsWith(SCALAR_SCRIPT.src)) {
      const served = await route.fetch()
      const body = Buffer.concat([
        await served.body(),
        Buffer.from('\n;window.__tampered = true\n'),
      ])
      return route.fulfill({ status: 200, contentType: 'text/javascript', body })
    }
    return route.continue()
  })
  const page = await context.newPage()
  const messages: string[] = []
  page.on('console', (message) => messages.push(message.text()))
  await page.goto(`${ORIGIN}/api/docs`)
  return { page, messages, elsewhere }
}

test.group('API reference page in Chromium', (group) => {
  let browser: Browser
  failHangsAtTheirLine(group, () => browser)

  group.setup(async () => {
    mkdirSync(SHOTS, { recursive: true })
    browser = await launchChromium()
    return () => browser?.close()
  })

  test('renders the generated document offline, from the bundle the app serves', async ({
    assert,
  }) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const { page, elsewhere } = await openDocs(context)
    await page.getByText('adonis-rbac-admin API').first().waitFor({ timeout: 30_000 })
    // The operations of the first tag are listed with the summaries the controllers declare.
    const document: any = await (await fetch(`${ORIGIN}/api/openapi.json`)).json()
    const [firstOperation] = Object.values<any>(Object.values<any>(document.paths)[0])
    await page.getByText(firstOperation.summary).first().waitFor()
    await page.screenshot({ path: `${SHOTS}/api-docs.png` })
    assert.isTrue(await page.getByText('Download OpenAPI Document').first().isVisible())
    // Nothing was even tried elsewhere (fonts, scripts, Scalar's services).
    assert.deepEqual(elsewhere, [])
    await context.close()
  })

  test('a changed bundle is refused by its digest and nothing renders', async ({ assert }) => {
    const context = await browser.newContext()
    const { page, messages } = await openDocs(context, true)
    await page.waitForLoadState('load')
    await page.waitForTimeout(1500)
    assert.isFalse(await page.evaluate("'Scalar' in window || '__tampered' in window"))
    assert.equal(await page.getByText('adonis-rbac-admin API').count(), 0)
    assert.isTrue(
      messages.some((text) => /integrity/i.test(text)),
      messages.join('\n')
    )
    await context.close()
  })
})
