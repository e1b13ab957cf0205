import { defineConfig } from '@adonisjs/core/bodyparser'

/**
 * JSON, and multipart for the one upload (PUT /api/auth/avatar): the form parser is off and bodies
 * are small (an admin write never needs more than a few hundred KB; article content is the
 * largest). Multipart bodies are never processed automatically: the route reads its file itself
 * after its auth middleware ran (app/core/uploads.ts), in memory, so an anonymous caller
 * cannot make the server read or store anything; `limit` bounds the file bytes read (413 past it).
 */
const bodyParserConfig = defineConfig({
  allowedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
  form: {
    convertEmptyStringsToNull: true,
    types: [],
  },
  json: {
    convertEmptyStringsToNull: true,
    limit: '512kb',
    types: ['application/json'],
  },
  multipart: {
    autoProcess: false,
    convertEmptyStringsToNull: true,
    processManually: [],
    limit: '8mb',
    types: ['multipart/form-data'],
  },
})

export default bodyParserConfig
