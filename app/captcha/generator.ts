import { randomInt } from 'node:crypto'
import { loadSharp } from '#core/sharp'
import { paintBackground } from '#captcha/image_background'
import { type Rng, between, createRng } from '#captcha/image_random'
import { type JigsawShape, coverageOf, createJigsawShape } from '#captcha/image_shape'

export type CaptchaImages = {
  /** Encoded background WITH the gap and the decoy gaps. */
  background: Buffer
  /** Encoded puzzle piece, transparent outside its jigsaw shape. */
  piece: Buffer
  mime: 'image/webp' | 'image/png'
  /** Left x (px) where the piece fits; server-side only. */
  answerX: number
  /** Top y (px) of the piece and of every gap. */
  pieceY: number
  width: number
  height: number
  /** Piece image width = height, tabs included. */
  pieceSize: number
}

export const CAPTCHA_WIDTH = 320
export const CAPTCHA_HEIGHT = 160
export const CAPTCHA_PIECE_SIZE = 50

/** The slider starts at x = 0, so the answer keeps clear of the piece's starting place. */
export const CAPTCHA_MIN_ANSWER_X = CAPTCHA_PIECE_SIZE + 10
/** Keeps gaps off the right and top/bottom borders, where a cut-off gap looks odd. */
const EDGE_MARGIN = 4
/** The real gap plus two decoys, all on one row and at least this far apart. */
const GAP_COUNT = 3
const GAP_SPACING = 6

/**
 * WebP settings. Effort 0 is about twice as fast as the default and the sizes stay far below the
 * budget. The piece is lossless: lossy WebP with alpha spends ~1 ms compressing the alpha plane
 * of even a 50x50 image, twice the cost of the whole lossless encode, for ~2 KB saved.
 */
const WEBP_BACKGROUND = { quality: 62, effort: 0, smartSubsample: false } as const
const WEBP_PIECE = { lossless: true, effort: 0, exact: true } as const

/**
 * Left x of every gap (real and decoys), uniform over all non-overlapping placements in the
 * allowed range: sort k draws from the range shrunk by the spacing, then spread them out again.
 * Decoys follow the same distribution as the answer, so position alone says nothing.
 */
function gapPositions(): number[] {
  const min = CAPTCHA_MIN_ANSWER_X
  const max = CAPTCHA_WIDTH - CAPTCHA_PIECE_SIZE - EDGE_MARGIN
  const step = CAPTCHA_PIECE_SIZE + GAP_SPACING
  const free = max - min - (GAP_COUNT - 1) * step
  const draws = Array.from({ length: GAP_COUNT }, () => randomInt(free + 1)).sort((a, b) => a - b)
  return draws.map((draw, i) => min + draw + i * step)
}

// Scratch buffers used only synchronously within one call, so one per process is enough.
let patchScratch: Float32Array | undefined
let tableScratch: Float64Array | undefined

/**
 * Box blur of a square RGB patch through a summed-area table: one pass, a constant cost per pixel
 * whatever the radius. Windows are clipped at the patch border.
 */
function boxBlur(patch: Float32Array, size: number, radius: number) {
  const stride = (size + 1) * 3
  // Row 0 and column 0 stay zero; everything else is overwritten.
  const table = (tableScratch ??= new Float64Array((size + 1) * stride))
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const t = (y + 1) * stride + (x + 1) * 3
      const p = (y * size + x) * 3
      for (let c = 0; c < 3; c++) {
        table[t + c] =
          patch[p + c] + table[t - 3 + c] + table[t - stride + c] - table[t - stride - 3 + c]
      }
    }
  }
  for (let y = 0; y < size; y++) {
    const top = Math.max(0, y - radius) * stride
    const bottom = Math.min(size, y + radius + 1) * stride
    const rows = bottom / stride - top / stride
    for (let x = 0; x < size; x++) {
      const left = Math.max(0, x - radius) * 3
      const right = Math.min(size, x + radius + 1) * 3
      const norm = 1 / (rows * ((right - left) / 3))
      const p = (y * size + x) * 3
      for (let c = 0; c < 3; c++) {
        const sum =
          table[bottom + right + c] -
          table[top + right + c] -
          table[bottom + left + c] +
          table[top + left + c]
        patch[p + c] = sum * norm
      }
    }
  }
}

/**
 * Picks a source square for a gap's fill that overlaps no gap, so a fill never carries the
 * piece's own content (which would let pixel matching find the answer, or mislead a person).
 */
function fillSource(gapXs: number[], gapY: number, rng: Rng): [number, number] {
  const size = CAPTCHA_PIECE_SIZE
  for (;;) {
    const sx = Math.floor(rng() * (CAPTCHA_WIDTH - size + 1))
    const sy = Math.floor(rng() * (CAPTCHA_HEIGHT - size + 1))
    const rowClear = sy + size <= gapY || sy >= gapY + size
    if (rowClear || gapXs.every((gx) => sx + size <= gx || sx >= gx + size)) return [sx, sy]
  }
}

/**
 * Replaces the shape at (gx, gy) by a blurred, flipped copy of another region, pulled towards the
 * hole tone and noised, with a sunken bevel (shadow on the top-left wall, light on the
 * bottom-right) so a person sees a hole. The real gap and the decoys are drawn by this function
 * with parameters drawn from the same ranges, so "the darkest" or "the sharpest" hole is a decoy
 * as often as not.
 */
function drawGap(
  canvas: Uint8ClampedArray,
  gx: number,
  gy: number,
  source: [number, number],
  shape: JigsawShape,
  tone: number,
  rng: Rng
) {
  const size = shape.size
  const patch = (patchScratch ??= new Float32Array(size * size * 3))
  const flipX = rng() < 0.5
  const flipY = rng() < 0.5
  for (let y = 0; y < size; y++) {
    const sy = source[1] + (flipY ? size - 1 - y : y)
    for (let x = 0; x < size; x++) {
      const sx = source[0] + (flipX ? size - 1 - x : x)
      const from = (sy * CAPTCHA_WIDTH + sx) * 3
      const to = (y * size + x) * 3
      patch[to] = canvas[from]
      patch[to + 1] = canvas[from + 1]
      patch[to + 2] = canvas[from + 2]
    }
  }
  boxBlur(patch, size, 2 + Math.floor(rng() * 2))

  const shade = between(rng, 0.3, 0.6)
  const noise = between(rng, 8, 20)
  const bevel = between(rng, 0.45, 0.9)
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const k = y * size + x
      const d = shape.distance[k]
      const cover = coverageOf(d)
      if (cover === 0) continue
      const n = (rng() - 0.5) * 2 * noise
      // The bevel fades in over the 5 px inside the outline.
      const rim = d > -5 ? bevel * Math.min(1, (d + 5) / 4) : 0
      const wall = 128 - 110 * shape.light[k]
      const j = ((gy + y) * CAPTCHA_WIDTH + gx + x) * 3
      for (let c = 0; c < 3; c++) {
        let v = patch[k * 3 + c] + (tone - patch[k * 3 + c]) * shade
        v += (wall - v) * rim + n
        canvas[j + c] += (v - canvas[j + c]) * cover
      }
    }
  }
}

/**
 * Cuts the piece from the untouched picture with a random brightness/contrast jitter (so it is
 * never a pixel-exact copy of anything) and a raised bevel, the inverse of the holes' sunken
 * one: lined up on any hole, the piece's rim is anti-correlated with the hole's rim, which pulls
 * pixel matching away from the holes. The rim is nearly solid, so the piece's outline looks the
 * same whatever picture is under it and its strength cannot be matched against the picture around
 * the real gap. Under full transparency the colour is the bevel's, a function of the shape only,
 * so the transparent corners cannot leak the picture around the gap (WebP keeps it: `exact`).
 */
function cutPiece(canvas: Uint8ClampedArray, px: number, py: number, shape: JigsawShape, rng: Rng) {
  const size = shape.size
  const out = new Uint8ClampedArray(size * size * 4)
  const gain = between(rng, 0.85, 1.15)
  const bias = between(rng, -12, 12)
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const k = y * size + x
      const d = shape.distance[k]
      const cover = coverageOf(d)
      const wall = 128 + 110 * shape.light[k]
      if (cover === 0) {
        // Invisible; were it black, an attacker reading raw RGB would see a sharp outline.
        out[k * 4] = out[k * 4 + 1] = out[k * 4 + 2] = wall
        continue
      }
      const rim = d > -2 ? 0.95 * Math.min(1, (d + 2) / 1.2) : 0
      const j = ((py + y) * CAPTCHA_WIDTH + px + x) * 3
      for (let c = 0; c < 3; c++) {
        const v = (canvas[j + c] - 128) * gain + 128 + bias
        out[k * 4 + c] = v + (wall - v) * rim
      }
      out[k * 4 + 3] = cover * 255
    }
  }
  return out
}

/**
 * Renders a challenge and also returns where the decoys are. For tests and diagnostics only:
 * `gapXs` reveals the candidate answers and must never reach a client.
 */
export async function renderCaptchaChallenge(): Promise<{
  images: CaptchaImages
  gapXs: number[]
}> {
  const width = CAPTCHA_WIDTH
  const height = CAPTCHA_HEIGHT
  const size = CAPTCHA_PIECE_SIZE
  const rng = createRng()
  const shape = createJigsawShape(size, rng)

  const pieceY = randomInt(EDGE_MARGIN, height - size - EDGE_MARGIN + 1)
  const gapXs = gapPositions()
  const answerX = gapXs[randomInt(gapXs.length)]

  // sharp reads the pixels asynchronously, so the canvas is fresh per call.
  const hotspots = gapXs.map((x) => ({ x, y: pieceY, size }))
  const canvas = paintBackground(
    new Uint8ClampedArray(width * height * 3),
    width,
    height,
    hotspots,
    rng
  )

  // Holes are all dark or all frosted per challenge: a darkest-region search then lands on a dark
  // patch of the picture half of the time, while the holes of one challenge still look alike.
  const tone = rng() < 0.5 ? 0 : 235
  // Cut first: the gaps are then drawn in place, and their fill sources never overlap a gap.
  const piece = cutPiece(canvas, answerX, pieceY, shape, rng)
  for (const gx of gapXs) {
    drawGap(canvas, gx, pieceY, fillSource(gapXs, pieceY, rng), shape, tone, rng)
  }

  // Raw input carries no metadata and sharp writes none unless asked to (no keepMetadata()).
  const sharp = await loadSharp()
  const [background, pieceBytes] = await Promise.all([
    sharp(canvas, { raw: { width, height, channels: 3 } })
      .webp(WEBP_BACKGROUND)
      .toBuffer(),
    sharp(piece, { raw: { width: size, height: size, channels: 4 } })
      .webp(WEBP_PIECE)
      .toBuffer(),
  ])

  return {
    images: {
      background,
      piece: pieceBytes,
      mime: 'image/webp',
      answerX,
      pieceY,
      width,
      height,
      pieceSize: size,
    },
    gapXs,
  }
}

export async function generateCaptchaImages(): Promise<CaptchaImages> {
  const { images } = await renderCaptchaChallenge()
  return images
}
