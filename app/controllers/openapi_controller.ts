import { readFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import { gzip } from 'node:zlib'
import app from '@adonisjs/core/services/app'
import type { HttpContext } from '@adonisjs/core/http'
import env from '#start/env'
import { notFound } from '#exceptions/api_exception'
import { contract } from '#openapi/contract'
import { openApiJson } from '#openapi/document'
import { s } from '#openapi/schema'
import {
  SCALAR_BUNDLE_IN_BUILD,
  SCALAR_BUNDLE_IN_PACKAGE,
  SCALAR_SCRIPT,
} from '#openapi/reference_assets'

/** The bundle and its gzip form, read and compressed once, on the first request for it. */
let bundle: Promise<{ plain: Buffer; gzip: Buffer }> | undefined
function loadBundle() {
  bundle ??= (async () => {
    const plain = await readBundle()
    return { plain, gzip: await promisify(gzip)(plain) }
  })().catch((error) => {
    bundle = undefined
    throw error
  })
  return bundle
}

/** The build's copy, else the installed package (app/openapi/reference_assets.ts). */
async function readBundle() {
  try {
    return await readFile(app.makePath(SCALAR_BUNDLE_IN_BUILD))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  return readFile(app.makePath(SCALAR_BUNDLE_IN_PACKAGE))
}

/**
 * Nothing from another origin: the system fonts instead of Scalar's font CDN, and none of the
 * features that call Scalar's services (AI agent, MCP, the developer toolbar's share/deploy).
 */
const SCALAR_CONFIGURATION = {
  withDefaultFonts: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
}

const REFERENCE_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>API reference</title>
  </head>
  <body>
    <script
      id="api-reference"
      data-url="/api/openapi.json"
      data-configuration='${JSON.stringify(SCALAR_CONFIGURATION)}'
    ></script>
    <script src="${SCALAR_SCRIPT.src}" integrity="${SCALAR_SCRIPT.integrity}"></script>
  </body>
</html>
`

/** On by default, off with NODE_ENV=production unless OPENAPI_ENABLED=true (it maps every route). */
function assertEnabled() {
  if (!(env.get('OPENAPI_ENABLED') ?? !app.inProduction)) throw notFound()
}

/** The API contract, generated from the code (app/openapi/document.ts). */
export default class OpenApiController {
  static contract = contract({
    document: {
      summary:
        'This document (OpenAPI 3.1), generated from the routes, validators and transformers',
      raw: { schema: s.record() },
      errors: [404],
    },
    reference: {
      summary: 'Reference page of this document',
      raw: { schema: s.string(), contentType: 'text/html' },
      errors: [404],
    },
    asset: {
      summary: "A script of the reference page (Scalar's bundle, served from this app)",
      raw: { schema: s.string(), contentType: 'text/javascript' },
      conditional: true,
      errors: [404],
    },
  })

  async document({ response }: HttpContext) {
    assertEnabled()
    response.header('Content-Type', 'application/json; charset=utf-8')
    response.header('Cache-Control', 'no-cache')
    return response.send(await openApiJson())
  }

  async reference({ response }: HttpContext) {
    assertEnabled()
    response.header('Content-Type', 'text/html; charset=utf-8')
    response.header('Cache-Control', 'no-cache')
    return response.send(REFERENCE_PAGE)
  }

  /** Scalar's bundle under its versioned name; any other name is a 404. */
  async asset({ params, request, response }: HttpContext) {
    assertEnabled()
    if (params.file !== SCALAR_SCRIPT.file) throw notFound()
    const etag = `"${SCALAR_SCRIPT.integrity}"`
    response.header('Content-Type', 'text/javascript; charset=utf-8')
    response.header('Cache-Control', 'public, max-age=31536000, immutable')
    response.header('ETag', etag)
    response.header('Vary', 'Accept-Encoding')
    if (request.header('if-none-match') === etag) return response.notModified()
    const { plain, gzip: zipped } = await loadBundle()
    if (/\bgzip\b/.test(request.header('accept-encoding') ?? '')) {
      response.header('Content-Encoding', 'gzip')
      return response.send(zipped)
    }
    return response.send(plain)
  }
}
