import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync } from 'node:fs'

/**
 * SIGTERM for `node ace` and the test process (bin/console.ts, bin/test.ts). With AdonisJS's
 * stock handler (`app.terminate()`) every ace command ignored it: `serve` kept its HTTP server
 * child, `test` its test process (which starts app processes, `node ace` commands and
 * Chromium), a long command ran on; a leftover test run then shared the SQLite file with the
 * next one. Now the process ends, with every process it started.
 */

type Row = { pid: number; ppid: number; zombie: boolean }

/** Every process of the machine with its parent: /proc on Linux, else `ps` (macOS). */
function processTable(): Row[] {
  if (existsSync('/proc/self/stat')) {
    const rows: Row[] = []
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
        // "pid (command) state ppid ...": the command may hold spaces and parentheses.
        const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
        rows.push({ pid: Number(name), ppid: Number(ppid), zombie: state === 'Z' })
      } catch {
        // Gone meanwhile.
      }
    }
    return rows
  }
  try {
    return execFileSync('ps', ['-A', '-o', 'pid=,ppid=,stat='], { encoding: 'utf8' })
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter(([pid]) => pid)
      .map(([pid, ppid, stat]) => ({
        pid: Number(pid),
        ppid: Number(ppid),
        zombie: stat?.startsWith('Z'),
      }))
  } catch {
    return []
  }
}

/** The living processes below `root` (its children, theirs, ...). */
export function descendants(root = process.pid): number[] {
  const children = new Map<number, Row[]>()
  for (const row of processTable()) {
    children.set(row.ppid, [...(children.get(row.ppid) ?? []), row])
  }
  const found: number[] = []
  const queue = [root]
  while (queue.length) {
    for (const child of children.get(queue.shift()!) ?? []) {
      if (!child.zombie) found.push(child.pid)
      queue.push(child.pid)
    }
  }
  return found
}

function signal(pids: number[], name: NodeJS.Signals) {
  for (const pid of pids) {
    try {
      process.kill(pid, name)
    } catch {
      // Already gone.
    }
  }
}

/**
 * Ends this process and every process below it: SIGTERM to all of them at once (an app
 * process drains, a test process ends its own the same way), SIGKILL to those still there
 * after `graceMs`, then `beforeExit` (the app's termination: database pools closed; given at
 * most 3 s) and exit with `exitCode` (128 + SIGTERM by default).
 */
export async function stopProcessTree({
  graceMs = 8000,
  exitCode = 143,
  beforeExit = async () => {},
}: { graceMs?: number; exitCode?: number; beforeExit?: () => Promise<unknown> } = {}) {
  const tree = descendants()
  if (tree.length) process.stderr.write(`SIGTERM: stopping ${tree.length} child process(es)\n`)
  signal(tree, 'SIGTERM')
  const deadline = Date.now() + graceMs
  let living = tree
  while (living.length && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    const now = new Set(processTable().flatMap((row) => (row.zombie ? [] : [row.pid])))
    living = living.filter((pid) => now.has(pid))
  }
  signal(living, 'SIGKILL')
  await Promise.race([
    beforeExit().catch(() => {}),
    new Promise((resolve) => setTimeout(resolve, 3000).unref()),
  ])
  process.exit(exitCode)
}
