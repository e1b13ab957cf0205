import { defineConfig } from '@adonisjs/core/bodyparser'

/**
 * JSON only: the API has no forms and no uploads, so the other parsers are off and bodies are
 * small (an admin write never needs more than a few hundred KB; article content is the largest).
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
    limit: '1mb',
    types: [],
  },
})

export default bodyParserConfig
