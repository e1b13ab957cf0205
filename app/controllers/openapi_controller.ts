import app from '@adonisjs/core/services/app'
import type { HttpContext } from '@adonisjs/core/http'
import env from '#start/env'
import { notFound } from '#exceptions/api_exception'
import { contract } from '#openapi/contract'
import { openApiJson } from '#openapi/document'
import { s } from '#openapi/schema'

/** The reference page loads Scalar's standalone bundle (pinned) and points it at the document. */
const SCALAR = 'https://cdn.jsdelivr.net/npm/@scalar/api-reference@1.72.1'

const REFERENCE_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>API reference</title>
  </head>
  <body>
    <script id="api-reference" data-url="/api/openapi.json"></script>
    <script src="${SCALAR}"></script>
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
