import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import type { Browser, BrowserContext } from 'playwright-core'
import env from '#start/env'
import { SCALAR_SCRIPT } from '#controllers/openapi_controller'
import { launchChromium } from '#tests/helpers/browser'

/**
 * The reference page at /api/docs in Chromium. The machine has no route to jsDelivr, so the CDN
 * request is answered from the npm package of the pinned version (what jsDelivr serves for that
 * path): the page must render the document with the pinned digest, and refuse a changed file.
 */
const SHOTS = app.makePath('tmp/browser')

/** dist/browser/standalone.js of the pinned version, from the npm registry (cached under tmp/). */
function scalarBundle(): Buffer {
  const version = /@scalar\/api-reference@([^/]+)\//.exec(SCALAR_SCRIPT.src)![1]
  const dir = app.makePath(`tmp/scalar-${version}`)
  const file = `${dir}/package/dist/browser/standalone.js`
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true })
    const tarball = execFileSync(
      'npm',
      ['pack', `@scalar/api-reference@${version}`, '--pack-destination', dir, '--silent'],
      { encoding: 'utf8' }
    ).trim()
    execFileSync('tar', ['xzf', `${dir}/${tarball}`, '-C', dir])
  }
  return readFileSync(file)
}

async function openDocs(context: BrowserContext, body: Buffer) {
  await context.route(SCALAR_SCRIPT.src, (route) =>
    route.fulfill({
      body,
      contentType: 'application/javascript',
      headers: { 'access-control-allow-origin': '*' },
    })
  )
  const page = await context.newPage()
  const messages: string[] = []
  page.on('console', (message) => messages.push(message.text()))
  await page.goto(`http://127.0.0.1:${env.get('PORT')}/api/docs`)
  return { page, messages }
}

test.group('API reference page in Chromium', (group) => {
  let browser: Browser
  let bundle: Buffer

  group.setup(async () => {
    bundle = scalarBundle()
    mkdirSync(SHOTS, { recursive: true })
    browser = await launchChromium()
    return () => browser?.close()
  })

  test('renders the generated document with the pinned bundle', async ({ assert }) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const { page } = await openDocs(context, bundle)
    await page.getByText('adonis-rbac-admin API').first().waitFor({ timeout: 30_000 })
    // The operations of the first tag are listed with the summaries the controllers declare.
    await page.getByText('List articles (every status)').first().waitFor()
    await page.screenshot({ path: `${SHOTS}/api-docs.png` })
    assert.isTrue(await page.getByText('Download OpenAPI Document').first().isVisible())
    await context.close()
  })

  test('a changed bundle is refused by its digest and nothing renders', async ({ assert }) => {
    const context = await browser.newContext()
    const tampered = Buffer.concat([bundle, Buffer.from('\n;window.__tampered = true\n')])
    const { page, messages } = await openDocs(context, tampered)
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
