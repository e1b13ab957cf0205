import type { HttpContext } from '@adonisjs/core/http'

type Request = HttpContext['request']
import { FieldError } from '#exceptions/api_exception'

/**
 * The bytes of one uploaded file (multipart/form-data, part `field`), read into memory by the
 * bodyparser's multipart stream (config/bodyparser.ts: multipart is never processed before the
 * route's middleware ran, so nothing is read for a caller the auth middleware refused, and nothing
 * touches the disk). Parts past `maxBytes` are still drained (the client gets its answer), but
 * only `maxBytes + 1` are kept; the multipart `limit` (config/bodyparser.ts) stops a longer body
 * with 413. Returns the bytes (possibly more than `maxBytes`: the caller says why it refuses).
 */
export async function readUpload(request: Request, field: string, maxBytes: number) {
  const multipart = request.multipart as Request['multipart'] | undefined
  if (!multipart || request.is(['multipart/form-data']) === null) {
    throw new FieldError(
      field,
      `Send the file as multipart/form-data, in the part "${field}"`,
      'required'
    )
  }
  let bytes: Buffer | undefined
  multipart.onFile(field, {}, async (part, reportChunk) => {
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of part as AsyncIterable<Buffer>) {
      await reportChunk(chunk)
      if (bytes || size > maxBytes) continue // a second part of the same name, or past the limit
      size += chunk.length
      chunks.push(chunk)
    }
    bytes ??= Buffer.concat(chunks)
  })
  await multipart.process()
  if (!bytes) {
    throw new FieldError(
      field,
      `Send the file as multipart/form-data, in the part "${field}"`,
      'required'
    )
  }
  return bytes
}
