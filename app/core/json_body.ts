import type { IncomingMessage } from 'node:http'
import string from '@adonisjs/core/helpers/string'
import { safeParse } from '@poppinss/utils/json'
import bodyParserConfig from '#config/bodyparser'
import { jsonNotObject, payloadTooLarge, requestAborted } from '#exceptions/api_exception'

/**
 * The JSON request body, read here rather than by AdonisJS's bodyparser, for the common case
 * only: `application/json`, not compressed. Anything else (multipart, a Content-Encoding) still
 * goes to the bodyparser (app/middleware/request_input_middleware.ts).
 * Same limit, same prototype-poisoning protection (@poppinss/utils' safeParse), same answers
 * (413 past the limit, 400 for malformed JSON or an aborted body, 422 for a body that is not an
 * object or array). Why: the bodyparser's generic path (raw-body, the charset decoder, a JSON
 * reviver per value) cost a small JSON body ~0.02 ms of CPU, a sixth of a refused login
 * (docs/performance.md).
 */

const LIMIT = string.bytes.parse(bodyParserConfig.json.limit ?? '512kb') as number
const JSON_TYPES = new Set(bodyParserConfig.json.types)
/** JSON text starting with an object or an array (the bodyparser's strict mode). */
const STRICT_JSON = /^[ \t\n\r]*[[{]/

/**
 * Whether this request's body is one readJsonBody handles: a JSON media type, not compressed. A
 * charset parameter changes nothing: the bodyparser, too, decodes JSON as UTF-8 whatever it says.
 */
export function isPlainJson(request: IncomingMessage) {
  const contentType = request.headers['content-type']
  if (!contentType) return false
  const encoding = request.headers['content-encoding']
  if (encoding && encoding.toLowerCase() !== 'identity') return false
  const semicolon = contentType.indexOf(';')
  const mediaType = semicolon < 0 ? contentType : contentType.slice(0, semicolon)
  return JSON_TYPES.has(mediaType.trim().toLowerCase())
}

/** Reads and parses the body: resolves with the JSON text and its value. */
export function readJsonBody(request: IncomingMessage): Promise<{ raw: string; parsed: object }> {
  const declared = Number(request.headers['content-length'])
  if (declared > LIMIT) return Promise.reject(payloadTooLarge())
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let received = 0
    const stop = (error: Error) => {
      request.off('data', onData)
      request.off('end', onEnd)
      request.off('close', onClose)
      request.off('error', stop)
      request.pause() // read no more of a body that is refused
      reject(error)
    }
    const onData = (chunk: Buffer) => {
      received += chunk.length
      if (received > LIMIT) return stop(payloadTooLarge())
      chunks.push(chunk)
    }
    const onEnd = () => {
      request.off('close', onClose)
      request.off('error', stop)
      const raw = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8')
      try {
        resolve({ raw, parsed: parse(raw) })
      } catch (error) {
        reject(error)
      }
    }
    // The client went away before the end of its body.
    const onClose = () => stop(requestAborted())
    request.on('data', onData)
    request.once('end', onEnd)
    request.once('close', onClose)
    request.on('error', stop)
  })
}

function parse(raw: string): object {
  if (raw === '') return {}
  if (!STRICT_JSON.test(raw)) {
    throw jsonNotObject()
  }
  try {
    return safeParse(raw)
  } catch (error) {
    // A SyntaxError with status 400: the handler answers "Malformed JSON body" (no echo of input).
    ;(error as { status?: number }).status = 400
    throw error
  }
}
