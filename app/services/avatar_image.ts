import { digest } from '#core/secrets'
import type { Metadata } from 'sharp'
import { loadSharp } from '#core/sharp'
import { FieldError } from '#exceptions/api_exception'
import { PriorityGate } from '#core/cpu_gates'

/** The largest upload accepted (bytes); larger -> 422 `size`. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024
/**
 * The most pixels decoded (a 24-megapixel photo, 6000 x 4000): a small file claiming more (a
 * decompression bomb, a 10k x 10k PNG) is refused from its header, before any pixel is decoded.
 */
export const AVATAR_MAX_INPUT_PIXELS = 24_000_000
/** Width and height of the stored WebP. */
export const AVATAR_SIZE = 256

/** Formats accepted, by their magic bytes. SVG (and anything else) never reaches a decoder. */
const SIGNATURES: { format: string; test: (bytes: Buffer) => boolean }[] = [
  { format: 'png', test: (b) => b.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex')) },
  { format: 'jpeg', test: (b) => b.subarray(0, 3).equals(Buffer.from('ffd8ff', 'hex')) },
  { format: 'gif', test: (b) => /^GIF8[79]a$/.test(b.subarray(0, 6).toString('latin1')) },
  {
    format: 'webp',
    test: (b) =>
      b.subarray(0, 4).toString('latin1') === 'RIFF' &&
      b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
]

/** One conversion at a time per instance (sharp's decode is the costly part), a few waiting. */
const avatarGate = new PriorityGate(1, 8)

const refuse = (key: string, rule: string, data?: Record<string, number>) =>
  new FieldError('avatar', key, rule, data)

/**
 * An uploaded image as the stored avatar: the format sniffed from the bytes (PNG, JPEG, GIF,
 * WebP; the client's name and type are ignored), its header checked against
 * AVATAR_MAX_INPUT_PIXELS, then decoded by sharp (`limitInputPixels` as the second fence,
 * `failOn: 'error'` for truncated or corrupt data), turned upright (EXIF orientation), cropped to a
 * 256 x 256 square (cover) and re-encoded as WebP. Nothing of the input but its pixels survives:
 * sharp writes no metadata (EXIF, GPS, XMP, ICC comments) unless asked to. 422 otherwise.
 */
export async function toAvatarWebp(bytes: Buffer) {
  if (bytes.length === 0) throw refuse('avatarEmpty', 'required')
  if (bytes.length > AVATAR_MAX_BYTES)
    throw refuse('avatarTooLarge', 'size', { mb: AVATAR_MAX_BYTES / 1024 / 1024 })
  const format = SIGNATURES.find((signature) => signature.test(bytes))?.format
  if (!format) throw refuse('avatarFormat', 'image')
  return avatarGate.run('trusted', async () => {
    const sharp = await loadSharp()
    const options = { limitInputPixels: AVATAR_MAX_INPUT_PIXELS, failOn: 'error' as const }
    const tooLarge = () =>
      refuse('avatarPixels', 'dimensions', { megapixels: AVATAR_MAX_INPUT_PIXELS / 1_000_000 })
    let metadata: Metadata
    try {
      // The header only: sharp refuses here already when it claims more than the limit.
      metadata = await sharp(bytes, options).metadata()
    } catch (error) {
      if (/pixel limit/i.test((error as Error).message)) throw tooLarge()
      throw refuse('avatarUnreadable', 'image')
    }
    if (metadata.format !== format) throw refuse('avatarUnreadable', 'image')
    const { width = 0, height = 0 } = metadata
    if (width < 1 || height < 1 || width * height > AVATAR_MAX_INPUT_PIXELS) throw tooLarge()
    try {
      return await sharp(bytes, options)
        .rotate()
        .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' })
        .webp({ quality: 82 })
        .toBuffer()
    } catch {
      throw refuse('avatarUndecodable', 'image')
    }
  })
}

/** A strong validator of the stored bytes (sent quoted in the ETag header). */
export function avatarEtag(webp: Buffer) {
  return digest(webp, 'base64url').slice(0, 32)
}
