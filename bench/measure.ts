/*
| One measured run of a scenario, shared by bench/run.ts and bench/baseline.ts: autocannon in
| its own process (bench/load.ts), and the CPU time the server process and PostgreSQL spent
| meanwhile, divided by the requests served.
*/
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { LoadResult } from './load.js'
import { cpuMsOf, postgresCpuByPid, postgresCpuSince } from './processes.js'

const ROOT = fileURLToPath(new URL('../', import.meta.url))

export type Scenario = {
  path: string
  method?: string
  headers?: Record<string, string>
  body?: string
  connections?: number
  requests?: { method: string; path: string; headers?: Record<string, string> }[]
  overallRate?: number
  /** The status every answer should have (default 2xx). */
  expect?: number
}
export type Run = LoadResult & { serverCpuMsPerRequest: number; pgCpuMsPerRequest: number }

/** autocannon in its own process; resolves with its figures (the caller stays responsive). */
export function load(
  base: string,
  scenario: Scenario,
  duration: number,
  connections: number
): Promise<LoadResult> {
  const options = {
    url: `${base}${scenario.path}`,
    method: scenario.method ?? 'GET',
    headers: scenario.headers ?? {},
    body: scenario.body,
    connections: scenario.connections ?? connections,
    duration,
    requests: scenario.requests,
    overallRate: scenario.overallRate,
  }
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', '@poppinss/ts-exec', 'bench/load.ts', JSON.stringify(options)],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] }
    )
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(output)) : reject(new Error(`load exited ${code}`))
    )
  })
}

/**
 * One measured run: the load's figures plus CPU ms per request of the server and of PostgreSQL's
 * backends connected to the bench's database (`pg`: its name; false on SQLite).
 */
export async function measuredRun(
  target: { base: string; pid: number; pg: string | false },
  scenario: Scenario,
  duration: number,
  connections: number
): Promise<Run> {
  // The window includes the load process's start, while the server idles (a few ms of its CPU).
  const before = {
    server: cpuMsOf(target.pid),
    pg: target.pg ? postgresCpuByPid(target.pg) : new Map(),
  }
  const result = await load(target.base, scenario, duration, connections)
  const requests = Math.max(1, result.total)
  return {
    ...result,
    serverCpuMsPerRequest: (cpuMsOf(target.pid) - before.server) / requests,
    pgCpuMsPerRequest: target.pg ? postgresCpuSince(before.pg, target.pg) / requests : 0,
  }
}
