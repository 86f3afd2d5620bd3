import {spawn, type ChildProcess} from 'node:child_process'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {Pool} from 'undici'

export const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url))

export interface Ready {
  url: string
  tokenId: string
  clientSecret: string
}

export interface ServedSandbox {
  child: ChildProcess
  ready: Ready
  stderr: () => string
}

/** Every sandbox process started, so a test file can kill leftovers in afterAll. */
export const started: ChildProcess[] = []

/** `svc sandbox serve` as its own process (so it can be killed for real), resolved at its ready line. */
export function serve(home: string, dataDir: string, extra: string[] = []): Promise<ServedSandbox> {
  const child = spawn(
    process.execPath,
    [BIN, 'sandbox', 'serve', '--port', '0', '--json', '--data-dir', dataDir, ...extra],
    {
      env: {PATH: process.env.PATH, HOME: home, SVC_CONFIG_DIR: join(home, 'config'), NO_COLOR: '1'},
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  started.push(child)
  let out = ''
  let err = ''
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()))
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString()
      const nl = out.indexOf('\n')
      if (nl >= 0) resolve({child, ready: JSON.parse(out.slice(0, nl)), stderr: () => err})
    })
    child.once('exit', (code) =>
      reject(Object.assign(new Error(`sandbox exited ${code}: ${err}`), {code, stderr: err})),
    )
  })
}

/** Kills with SIGKILL and waits for the exit. */
export async function kill9(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && !child.signalCode) {
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGKILL')
    await exited
  }
}

/** A small HTTP client for one sandbox process: JSON in and out, no throw on 4xx/5xx. */
export function client(ready: Ready) {
  const base = new URL(ready.url)
  const pool = new Pool(base.origin, {connections: 12})
  const auth = 'Basic ' + Buffer.from(`${ready.tokenId}:${ready.clientSecret}`).toString('base64')
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await pool.request({
      method: method as 'GET',
      path: base.pathname + path,
      headers: {authorization: auth, ...(body !== undefined ? {'content-type': 'application/json'} : {}), ...headers},
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.body.text()
    return {status: res.statusCode, body: text ? JSON.parse(text) : undefined}
  }
  return {call, close: () => pool.destroy()}
}

export type Api = ReturnType<typeof client>['call']

export const TERMS = {
  acceptedAt: '2026-01-01T00:00:00Z',
  ipAddress: '127.0.0.1',
  termsVersion: '2025-10-01',
  acceptanceMethod: 'CHECKBOX',
}
