import { type Rng, between } from '#captcha/image_random'

type Rgb = [number, number, number]
type Point = [number, number]

/** A square (top-left x, y and side) that must get some detail crossing its border. */
export type Hotspot = { x: number; y: number; size: number }

/** HSL (h in turns, s and l in [0, 1]) to RGB in [0, 255]. */
function hsl(h: number, s: number, l: number): Rgb {
  const turn = h - Math.floor(h)
  const k = (n: number) => (n + turn * 12) % 12
  const a = s * Math.min(l, 1 - l)
  const f = (n: number) => 255 * (l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1)))
  return [f(0), f(8), f(4)]
}

/**
 * Smooth value noise on a coarse random grid. Interpolation is split per axis (a row of the grid
 * is interpolated in y once per image row, then each pixel only does one lerp in x), which keeps
 * the per-pixel cost to a few operations.
 */
class ValueNoise {
  readonly row: Float32Array
  readonly #grid: Float32Array
  readonly #gw: number
  readonly #cell: number
  readonly column: Int32Array
  readonly weight: Float32Array

  constructor(width: number, height: number, cell: number, rng: Rng) {
    this.#cell = cell
    this.#gw = Math.ceil(width / cell) + 2
    const gh = Math.ceil(height / cell) + 2
    this.#grid = new Float32Array(this.#gw * gh)
    for (let i = 0; i < this.#grid.length; i++) this.#grid[i] = rng() * 2 - 1
    this.row = new Float32Array(this.#gw)
    this.column = new Int32Array(width)
    this.weight = new Float32Array(width)
    for (let x = 0; x < width; x++) {
      const g = x / cell
      const i = Math.floor(g)
      const t = g - i
      this.column[x] = i
      this.weight[x] = t * t * (3 - 2 * t)
    }
  }

  /** Prepares `row` for image row y. */
  seekRow(y: number) {
    const g = y / this.#cell
    const iy = Math.floor(g)
    let t = g - iy
    t = t * t * (3 - 2 * t)
    const top = iy * this.#gw
    for (let i = 0; i < this.#gw; i++) {
      const a = this.#grid[top + i]
      this.row[i] = a + (this.#grid[top + this.#gw + i] - a) * t
    }
  }

  /** Noise at column x of the row prepared by seekRow, in [-1, 1]. */
  at(x: number): number {
    const i = this.column[x]
    const a = this.row[i]
    return a + (this.row[i + 1] - a) * this.weight[x]
  }
}

/** Blends a colour into the canvas with the given opacity and anti-aliased signed distance. */
function blend(
  canvas: Uint8ClampedArray,
  i: number,
  color: Rgb,
  opacity: number,
  distance: number
) {
  const a = distance >= 0.75 ? 0 : distance <= -0.75 ? opacity : opacity * (0.5 - distance / 1.5)
  if (a <= 0) return
  const j = i * 3
  canvas[j] += (color[0] - canvas[j]) * a
  canvas[j + 1] += (color[1] - canvas[j + 1]) * a
  canvas[j + 2] += (color[2] - canvas[j + 2]) * a
}

/**
 * Paints a random picture (gradient, soft noise, ellipses, rings and bands in a random palette)
 * as 8-bit RGB into `canvas` (width * height * 3, every value overwritten). Blending straight
 * into bytes loses a little precision per layer, which is invisible and saves a float canvas and
 * its conversion. Shapes and bands crossing a gap are what let a person see where the piece
 * continues the picture; nothing comes from stored images, so there is no original to diff.
 */
export function paintBackground(
  canvas: Uint8ClampedArray,
  width: number,
  height: number,
  hotspots: Hotspot[],
  rng: Rng
): Uint8ClampedArray {
  const hue = rng()
  const spread = between(rng, 0.15, 0.5)
  const colorAt = (lightMin: number, lightMax: number): Rgb =>
    hsl(
      hue + between(rng, -spread, spread),
      between(rng, 0.35, 0.85),
      between(rng, lightMin, lightMax)
    )

  // Linear gradient between two palette colours along a random direction, t in [0, 1].
  const from = colorAt(0.25, 0.75)
  const to = colorAt(0.25, 0.75)
  const angle = rng() * Math.PI * 2
  const gx = Math.cos(angle) / width
  const gy = Math.sin(angle) / height
  const reach = Math.abs(gx * width) + Math.abs(gy * height)
  const tx = gx / reach
  const t0 = 0.5 - (gx * width + gy * height) / (2 * reach)

  // Two octaves of value noise tinted with random colours add texture at the gap's scale.
  const coarse = new ValueNoise(width, height, between(rng, 40, 70), rng)
  const fine = new ValueNoise(width, height, between(rng, 10, 18), rng)
  const tintCoarse = colorAt(0.3, 0.7).map((c) => (c - 128) * 0.45)
  const tintFine = colorAt(0.3, 0.7).map((c) => (c - 128) * 0.18)

  for (let y = 0, j = 0; y < height; y++) {
    coarse.seekRow(y)
    fine.seekRow(y)
    let t = t0 + (gy * y) / reach
    for (let x = 0; x < width; x++, j += 3, t += tx) {
      const nc = coarse.at(x)
      const nf = fine.at(x)
      canvas[j] = from[0] + (to[0] - from[0]) * t + tintCoarse[0] * nc + tintFine[0] * nf
      canvas[j + 1] = from[1] + (to[1] - from[1]) * t + tintCoarse[1] * nc + tintFine[1] * nf
      canvas[j + 2] = from[2] + (to[2] - from[2]) * t + tintCoarse[2] * nc + tintFine[2] * nf
    }
  }

  const shapes = 18 + Math.floor(rng() * 9)
  for (let s = 0; s < shapes; s++) {
    const color = colorAt(0.15, 0.9)
    const opacity = between(rng, 0.55, 0.95)
    const kind = rng()
    if (kind < 0.2) drawBand(canvas, width, height, color, opacity, rng)
    else drawEllipse(canvas, width, height, color, opacity, kind < 0.4, rng)
  }

  // Every hotspot (the real gap and the decoys alike) gets shapes that cross its border, so the
  // piece always carries a detail that visibly continues around the real gap, even when the
  // random layout left that spot plain.
  for (const spot of hotspots) {
    for (let s = 0; s < 2; s++) {
      const color = colorAt(0.1, 0.92)
      const opacity = between(rng, 0.7, 0.95)
      if (rng() < 0.4) {
        const through: Point = [spot.x + rng() * spot.size, spot.y + rng() * spot.size]
        drawBand(canvas, width, height, color, opacity, rng, through)
      } else {
        // Centre on the spot's border so the shape is cut by the outline.
        const t = rng() * 4
        const side = Math.floor(t)
        const along = (t - side) * spot.size
        const centre: Point =
          side === 0
            ? [spot.x + along, spot.y]
            : side === 1
              ? [spot.x + spot.size, spot.y + along]
              : side === 2
                ? [spot.x + along, spot.y + spot.size]
                : [spot.x, spot.y + along]
        drawEllipse(canvas, width, height, color, opacity, rng() < 0.3, rng, centre, 0.55)
      }
    }
  }
  return canvas
}

/** A straight band across the picture; only pixels within reach of the line are visited. */
function drawBand(
  canvas: Uint8ClampedArray,
  width: number,
  height: number,
  color: Rgb,
  opacity: number,
  rng: Rng,
  through: Point = [between(rng, 0, width), between(rng, 0, height)]
) {
  const theta = rng() * Math.PI
  const nx = Math.cos(theta)
  const ny = Math.sin(theta)
  const c = nx * through[0] + ny * through[1]
  const halfWidth = between(rng, 1.5, 7)
  const reach = halfWidth + 1
  for (let y = 0; y < height; y++) {
    let x0 = 0
    let x1 = width
    if (Math.abs(nx) > 1e-3) {
      const a = (c - ny * y - reach) / nx
      const b = (c - ny * y + reach) / nx
      x0 = Math.max(0, Math.floor(Math.min(a, b)))
      x1 = Math.min(width, Math.ceil(Math.max(a, b)) + 1)
    } else if (Math.abs(ny * y - c) > reach) {
      continue
    }
    for (let x = x0; x < x1; x++) {
      blend(canvas, y * width + x, color, opacity, Math.abs(nx * x + ny * y - c) - halfWidth)
    }
  }
}

/** A rotated filled ellipse or ring, visited within its tight bounding box. */
function drawEllipse(
  canvas: Uint8ClampedArray,
  width: number,
  height: number,
  color: Rgb,
  opacity: number,
  isRing: boolean,
  rng: Rng,
  [cx, cy]: Point = [between(rng, -20, width + 20), between(rng, -20, height + 20)],
  scale = 1
) {
  const ra = between(rng, 6, 45) * scale
  const rb = ra * between(rng, 0.5, 1)
  const rot = rng() * Math.PI
  const cos = Math.cos(rot)
  const sin = Math.sin(rot)
  const ring = isRing ? between(rng, 2, 6) : 0
  const hx = Math.sqrt(ra * ra * cos * cos + rb * rb * sin * sin) + 1
  const hy = Math.sqrt(ra * ra * sin * sin + rb * rb * cos * cos) + 1
  const x0 = Math.max(0, Math.floor(cx - hx))
  const x1 = Math.min(width, Math.ceil(cx + hx))
  const y0 = Math.max(0, Math.floor(cy - hy))
  const y1 = Math.min(height, Math.ceil(cy + hy))
  // Squared normalised radii beyond which a pixel is untouched (outside, or inside a ring's hole)
  // or fully covered, so most pixels skip the square root.
  const outer = (1 + 0.75 / rb) ** 2
  const hole = isRing ? Math.max(0, 1 - (2 * ring + 0.75) / rb) ** 2 : -1
  const solid = isRing ? -1 : Math.max(0, 1 - 0.75 / rb) ** 2
  const ia = 1 / (ra * ra)
  const ib = 1 / (rb * rb)
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const u = (x - cx) * cos + (y - cy) * sin
      const v = (y - cy) * cos - (x - cx) * sin
      const q2 = u * u * ia + v * v * ib
      if (q2 >= outer || q2 <= hole) continue
      if (q2 <= solid) {
        blend(canvas, y * width + x, color, opacity, -1)
        continue
      }
      // Distance approximation for an ellipse, good enough for a one-pixel anti-aliased edge.
      const d = (Math.sqrt(q2) - 1) * rb
      blend(canvas, y * width + x, color, opacity, isRing ? Math.abs(d + ring) - ring : d)
    }
  }
}
