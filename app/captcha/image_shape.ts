import { type Rng, between } from '#captcha/image_random'

/**
 * A jigsaw piece described by an approximate signed distance (pixels, negative inside) sampled at
 * every pixel centre of a size x size box. The distance gives anti-aliased coverage and lets the
 * gap and the piece draw rims at a chosen depth without any extra rasterisation pass.
 */
export type JigsawShape = {
  size: number
  distance: Float32Array
  /**
   * How much the outline faces the light (top left): twice the dot product of the outward normal
   * with the light direction, clamped to [-1, 1], so the bevel saturates on most of each side.
   */
  light: Float32Array
}

/** Anti-aliased coverage in [0, 1] for a signed distance. */
export function coverageOf(distance: number): number {
  return distance >= 0.5 ? 0 : distance <= -0.5 ? 1 : 0.5 - distance
}

export function createJigsawShape(size: number, rng: Rng): JigsawShape {
  // The body leaves a margin on every side so outward tabs stay inside the box.
  const margin = Math.round(size * 0.18)
  const mid = size / 2
  const half = size / 2 - margin
  const corner = 3
  const radius = size * 0.11
  // Distance of a tab/socket centre from the body edge: tabs reach the box edge and have a neck.
  const offset = margin - radius - 0.5

  // Each side gets a tab (+1) or a socket (-1); at least one of each so it reads as a jigsaw piece.
  const sides = [0, 1, 2, 3].map(() => (rng() < 0.5 ? 1 : -1))
  if (sides.every((s) => s === sides[0])) sides[Math.floor(rng() * 4)] *= -1
  const circles = sides.map((kind, side) => {
    const along = mid + between(rng, -3, 3)
    // Tab centres sit outside the body edge, socket centres inside it.
    const out = margin - kind * offset
    const [cx, cy] =
      side === 0
        ? [along, out]
        : side === 1
          ? [size - out, along]
          : side === 2
            ? [along, size - out]
            : [out, along]
    return { kind, cx, cy }
  })

  const distance = new Float32Array(size * size)
  for (let y = 0; y < size; y++) {
    const py = y + 0.5
    for (let x = 0; x < size; x++) {
      const px = x + 0.5
      // Rounded rectangle body.
      const qx = Math.abs(px - mid) - (half - corner)
      const qy = Math.abs(py - mid) - (half - corner)
      const ox = Math.max(qx, 0)
      const oy = Math.max(qy, 0)
      let d = Math.sqrt(ox * ox + oy * oy) + Math.min(Math.max(qx, qy), 0) - corner
      for (const c of circles) {
        const dc = Math.sqrt((px - c.cx) ** 2 + (py - c.cy) ** 2) - radius
        d = c.kind > 0 ? Math.min(d, dc) : Math.max(d, -dc)
      }
      distance[y * size + x] = d
    }
  }
  // Normals from central differences of the distance field.
  const light = new Float32Array(size * size)
  const at = (x: number, y: number) =>
    distance[Math.min(size - 1, Math.max(0, y)) * size + Math.min(size - 1, Math.max(0, x))]
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const nx = at(x + 1, y) - at(x - 1, y)
      const ny = at(x, y + 1) - at(x, y - 1)
      const len = Math.sqrt(nx * nx + ny * ny) || 1
      light[y * size + x] = Math.max(-1, Math.min(1, (-(nx + ny) / len) * Math.SQRT1_2 * 2))
    }
  }
  return { size, distance, light }
}
