import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import type pg from 'pg'
import app from '@adonisjs/core/services/app'
import { captchaAt, rightVerify, TAKE_ANSWER_SQL } from '#tests/helpers/captcha'

export type AppProcess = {
  url: string
  port: number
  child: ChildProcess
  output: () => string
  stop: () => Promise<void>
}

/** A free loopback port. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })
}

/**
 * Starts the real HTTP server in a separate process (bin/server.ts through the TypeScript loader)
 * with extra environment variables, and waits until it answers. Used for configuration, fault
 * and multi-instance tests.
 */
export async function startAppProcess(extraEnv: Record<string, string>): Promise<AppProcess> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', '@poppinss/ts-exec', 'bin/server.ts'], {
    cwd: app.makePath(),
    env: { ...process.env, NODE_ENV: 'test', HOST: '127.0.0.1', PORT: String(port), ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  const url = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode !== null) return
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
      setTimeout(() => child.kill('SIGKILL'), 5000).unref()
    })
  }

  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`app process exited early:\n${output}`)
    try {
      await fetch(`${url}/api/__ready__`)
      return { url, port, child, output: () => output, stop }
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  await stop()
  throw new Error(`app process did not start in 30 s:\n${output}`)
}

/** The JSON body of a fetch response, untyped (tests assert its shape themselves). */
export const readJson = async (response: Response): Promise<any> => response.json()

/** A JSON request to an app process: its status and parsed body. */
export async function fetchJson(url: string, init: RequestInit = {}) {
  const response = await fetch(url, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  })
  return { status: response.status, body: await readJson(response) }
}

/**
 * A login credential earned from an app process as a browser earns it: the challenge from `from`,
 * its answer read from the database, the drag verified by `to` (the same instance by default).
 */
export async function earnCredential(db: pg.Client, from: string, to = from) {
  const challenge = await captchaAt(from)
  const { rows } = await db.query(TAKE_ANSWER_SQL, [challenge.captchaId])
  const verify = await fetchJson(`${to}/api/auth/captcha/verify`, {
    method: 'POST',
    body: JSON.stringify(await rightVerify(challenge, Number(rows[0].answer_x))),
  })
  return verify.body.data.captchaToken as string
}

/**
 * `node ace ...args` in a separate process (NODE_ENV=test, plus `env`): its status and output.
 * spawnSync blocks the event loop, so Japa's timeout cannot end a hung child: its own does, inside
 * the 30 s a test may take.
 */
export function runAce(args: string[], env: Record<string, string> = {}, timeout = 25_000) {
  const run = spawnSync(process.execPath, ['ace', ...args], {
    cwd: app.makePath(),
    env: { ...process.env, NODE_ENV: 'test', ...env },
    encoding: 'utf8',
    timeout,
  })
  return { status: run.status, stdout: run.stdout, output: run.stdout + run.stderr }
}
