/*
| Slider-captcha generation speed and payload size.
|
|   node --import @poppinss/ts-exec bench/captcha_generation.ts [runs]
|   taskset -c 0 node --import @poppinss/ts-exec bench/captcha_generation.ts   # one core
|
| Challenges are generated one after another (as a single request would), after a warm-up that
| lets V8 optimise the pixel loops. Payload = both images as base64 data URLs. Besides wall-clock
| time it prints CPU time (this process, all threads, so libvips' encoder is included): on a
| machine shared with other work the CPU figure is the steadier measure of the cost.
*/
import { availableParallelism } from 'node:os'
import sharp from 'sharp'
import { generateCaptchaImages } from '#captcha/generator'

const runs = Number(process.argv[2] ?? 200)
const warmUp = 30

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]
}

for (let i = 0; i < warmUp; i++) await generateCaptchaImages()

const times: number[] = []
const cpuTimes: number[] = []
const payloads: number[] = []
for (let i = 0; i < runs; i++) {
  const cpu = process.cpuUsage()
  const start = performance.now()
  const images = await generateCaptchaImages()
  times.push(performance.now() - start)
  const used = process.cpuUsage(cpu)
  cpuTimes.push((used.user + used.system) / 1000)
  const prefix = `data:${images.mime};base64,`
  payloads.push(
    prefix.length * 2 +
      images.background.toString('base64').length +
      images.piece.toString('base64').length
  )
}
times.sort((a, b) => a - b)
cpuTimes.sort((a, b) => a - b)
payloads.sort((a, b) => a - b)

console.log(
  `node ${process.version}, sharp ${sharp.versions.sharp} (libvips ${sharp.versions.vips}), ` +
    `${availableParallelism()} CPU(s) available to this process, libvips threads ${sharp.concurrency()}`
)
console.log(`runs ${runs} (after ${warmUp} warm-up)`)
console.log(
  `generation ms: median ${percentile(times, 0.5).toFixed(2)}, p95 ${percentile(times, 0.95).toFixed(2)}, ` +
    `min ${times[0].toFixed(2)}, max ${times[times.length - 1].toFixed(2)}`
)
console.log(
  `CPU ms (all threads): median ${percentile(cpuTimes, 0.5).toFixed(2)}, ` +
    `p95 ${percentile(cpuTimes, 0.95).toFixed(2)}`
)
console.log(
  `payload bytes (both data URLs): median ${percentile(payloads, 0.5)}, ` +
    `p95 ${percentile(payloads, 0.95)}, max ${payloads[payloads.length - 1]}`
)
