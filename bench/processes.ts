/*
| What a process costs, read from /proc (Linux): CPU time of the whole process (every thread, so
| the libuv pool's argon2 and sharp work counts) and resident memory. The benchmarks sample these
| around a run and divide by the requests served: CPU ms per request, measured on the server.
*/
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

const TICK_MS = 1000 / 100 // /proc/<pid>/stat counts clock ticks (USER_HZ = 100 on Linux)

/** CPU time (ms) process `pid` has used (utime + stime); 0 when it has ended. */
export function cpuMsOf(pid: number | string) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS
  } catch {
    return 0
  }
}

/**
 * CPU time (ms) of the PostgreSQL processes on the machine: with `database`, of the backends
 * connected to it alone (their title names it), so the other databases of a shared machine do
 * not count; without, of every one. By backend: pid -> ms.
 */
export function postgresCpuByPid(database?: string) {
  const byPid = new Map<string, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue
      const title = database ? readFileSync(`/proc/${entry}/cmdline`, 'utf8') : ''
      if (!database || title.includes(` ${database} `)) byPid.set(entry, cpuMsOf(entry))
    } catch {}
  }
  return byPid
}

/**
 * CPU ms the backends of `database` used since `before` (postgresCpuByPid): the growth of each
 * one alive now. A backend that ended meanwhile (a pool closing an idle connection) drops out
 * instead of taking its whole past CPU off the sum, which made a run's figure negative.
 */
export function postgresCpuSince(before: Map<string, number>, database?: string) {
  let total = 0
  for (const [pid, ms] of postgresCpuByPid(database)) total += ms - (before.get(pid) ?? 0)
  return total
}

const statusMb = (pid: number, field: string) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]) / 1024)
}

/** Resident memory of process `pid`, in MB. */
export const rssMbOf = (pid: number) => statusMb(pid, 'VmRSS')

/**
 * The private part of it (RssAnon: V8's heap, the C heap, stacks), in MB. The rest of RSS is
 * file pages (the `node` binary's, ~56 MB here, libvips'), shared with every process mapping the
 * same files and dropped by the kernel under memory pressure.
 */
export const anonMbOf = (pid: number) => statusMb(pid, 'RssAnon')

/** CPU time (ms) this process has used. */
export function ownCpuMs() {
  const used = process.cpuUsage()
  return (used.user + used.system) / 1000
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}
export const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]
export const round2 = (value: number) => Math.round(value * 100) / 100

/**
 * How `npm start` runs the server (package.json's start script: `VAR=value ... node <flags>
 * bin/server.js`), as environment and node arguments: the benchmarks run the server exactly so.
 */
export function startCommand(root: string) {
  const script: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start
  const words = script.split(/\s+/).filter(Boolean)
  const node = words.indexOf('node')
  if (node < 0) throw new Error(`the start script does not run node: ${script}`)
  const env = Object.fromEntries(words.slice(0, node).map((pair) => pair.split(/=(.*)/s, 2)))
  return { env: env as Record<string, string>, args: words.slice(node + 1) }
}

/** CPU time (ms) of every process descended from `root` (a browser's renderers, GPU, network). */
export function descendantsCpuMs(root = process.pid) {
  const parent = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')
      parent.set(Number(entry), Number(fields[1]))
    } catch {}
  }
  let total = 0
  for (const pid of parent.keys()) {
    let up = parent.get(pid) ?? 0
    while (up && up !== root) up = parent.get(up) ?? 0
    if (up === root) total += cpuMsOf(pid)
  }
  return total
}
