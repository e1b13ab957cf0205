import { randomBytes } from 'node:crypto'

/** Returns floats in [0, 1). */
export type Rng = () => number

/**
 * Fast non-cryptographic PRNG (sfc32) for the visual noise only; it is seeded from the CSPRNG so
 * challenges cannot be replayed from a guessed seed. Answer positions use node:crypto directly.
 */
export function createRng(): Rng {
  const seed = randomBytes(16)
  let a = seed.readUInt32LE(0)
  let b = seed.readUInt32LE(4)
  let c = seed.readUInt32LE(8)
  let d = seed.readUInt32LE(12) | 1
  return () => {
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return (t >>> 0) / 4294967296
  }
}

export function between(rng: Rng, min: number, max: number): number {
  return min + (max - min) * rng()
}
