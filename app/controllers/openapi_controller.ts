import app from '@adonisjs/core/services/app'
import type { HttpContext } from '@adonisjs/core/http'
import env from '#start/env'
import { notFound } from '#exceptions/api_exception'
import { contract } from '#openapi/contract'
import { openApiJson } from '#openapi/document'
import { s } from '#openapi/schema'

/**
 * Scalar's standalone bundle on jsDelivr, pinned by version and by digest (Subresource
 * Integrity): the page runs on the API's origin, where the console may keep its token, so a file
 * changed on the CDN must not run there. The digest is of dist/browser/standalone.js in the npm
 * package of that version (tests/browser/api_docs.spec.ts checks it against the package).
 */
export const SCALAR_SCRIPT = {
  src: 'https://cdn.jsdelivr.net/npm/@scalar/api-reference@1.72.1/dist/browser/standalone.js',
  integrity: 'sha384-U11tb2XnKvmwt8RlTvnwUnYgrN+ur4Xyh9htLhjajWNR/Oyl5AX5DEz00qRmlrmK',
}

const REFERENCE_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>API reference</title>
  </head>
  <body>
    <script id="api-reference" data-url="/api/openapi.json"></script>
    <script
      src="${SCALAR_SCRIPT.src}"
      integrity="${SCALAR_SCRIPT.integrity}"
      crossorigin="anonymous"
      referrerpolicy="no-referrer"
    ></script>
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
    },
    reference: {
      summary: 'Reference page of this document',
      raw: { schema: s.string(), contentType: 'text/html' },
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
}
