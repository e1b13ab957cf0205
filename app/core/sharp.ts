import type Sharp from 'sharp'

let loading: Promise<typeof Sharp> | undefined

/**
 * sharp (and libvips), loaded on the first image made (a captcha, an avatar), not at boot: the
 * first answers of a starting server need neither (docs/performance.md). No libvips operation
 * cache: every captcha is a new raw buffer, it can never hit and only holds memory (it pushed the
 * server past 300 MB RSS in the benchmark). One thread per encode leaves the other core to requests.
 */
export function loadSharp() {
  loading ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false)
    sharp.concurrency(1)
    return sharp
  })
  return loading
}
