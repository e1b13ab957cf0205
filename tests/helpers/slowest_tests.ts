import { relative } from 'node:path'
import type { PluginFn } from '@japa/runner/types'

/** How many of a run's slowest tests are listed at its end. */
const LISTED = 10

/**
 * The run's slowest tests with their times, printed after the summary (README, "Tests": no
 * single test over 30 s). Japa's `test:end` events carry each test's duration.
 */
export function slowestTests(): PluginFn {
  return ({ emitter }) => {
    const times: { ms: number; name: string }[] = []
    emitter.on('test:end', (test) => {
      const file = test.meta.fileName ? relative(process.cwd(), test.meta.fileName) : ''
      times.push({ ms: test.duration, name: `${file} › ${test.title.expanded}` })
    })
    emitter.on('runner:end', () => {
      if (!times.length) return
      const slowest = times.sort((a, b) => b.ms - a.ms).slice(0, LISTED)
      const lines = slowest.map(
        ({ ms, name }) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${name}`
      )
      // At exit, after the reporter's summary (and before "Failures, in short", registered later).
      process.once('exit', () =>
        console.log(`\nSlowest ${slowest.length} tests:\n${lines.join('\n')}`)
      )
    })
  }
}
