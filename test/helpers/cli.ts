import {spawn} from 'node:child_process'
import {fileURLToPath} from 'node:url'

const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url))

export interface CliResult {
  code: number
  stdout: string
  stderr: string
  /** stdout parsed as JSON (throws with the raw output when it is not JSON). */
  json<T = any>(): T
}

/** Runs the built `svc` binary (or `bin`: an installed copy's) as a child process, the way a user or a CI script does. */
export function svc(
  args: string[],
  opts: {env?: Record<string, string | undefined>; input?: string; timeoutMs?: number; cwd?: string; bin?: string} = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = {PATH: process.env.PATH, ...opts.env}
    for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k]
    const child = spawn(process.execPath, [opts.bin ?? BIN, ...args], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      cwd: opts.cwd,
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')))
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 20_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({
        code: code ?? -1,
        stdout,
        stderr,
        json() {
          try {
            return JSON.parse(stdout)
          } catch {
            throw new Error(`stdout is not JSON (exit ${code}):\n${stdout}\nstderr:\n${stderr}`)
          }
        },
      })
    })
    child.stdin.end(opts.input ?? '')
  })
}

/**
 * `svc login --profile <profile> --base-url <baseUrl> --token-id <tokenId> --secret-stdin …flags`: a login the way
 * operators script it, the secret on stdin (pass it as the run's `input`).
 */
export const loginArgs = (profile: string, baseUrl: string, tokenId: string, ...flags: string[]) => [
  'login',
  '--profile',
  profile,
  '--base-url',
  baseUrl,
  '--token-id',
  tokenId,
  '--secret-stdin',
  ...flags,
]

/** The `error` object of a failed `--json` run. */
export const errorOf = (r: CliResult) =>
  r.json<{
    error: {status: number | null; code: string; reason: string; hint: string; details: Record<string, unknown>}
  }>().error

export interface LiveCli {
  child: import('node:child_process').ChildProcessWithoutNullStreams
  /** Everything written so far. */
  stdout(): string
  stderr(): string
  /** The exit code (-1 when killed by a signal). */
  exited: Promise<number>
}

/** The built `svc` as a child process read while it runs (a listener, a command to interrupt). */
export function svcLive(args: string[], env: Record<string, string | undefined>): LiveCli {
  const child = spawn(process.execPath, [BIN, ...args], {env: {PATH: process.env.PATH, ...env}})
  let out = ''
  let err = ''
  child.stdout.on('data', (c: Buffer) => (out += c.toString()))
  child.stderr.on('data', (c: Buffer) => (err += c.toString()))
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited: new Promise<number>((r) => child.once('exit', (code) => r(code ?? -1))),
  }
}

/**
 * Runs the built `svc` and sends it SIGINT (Ctrl-C off a terminal) once its stderr matches `when`,
 * after `before` when given; SIGKILL after 40 s if it never ends.
 */
export function interruptWhen(
  args: string[],
  env: Record<string, string | undefined>,
  when: RegExp,
  before?: () => Promise<void>,
): Promise<{code: number | null; signal: string | null; stdout: string; stderr: string}> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: {PATH: process.env.PATH, ...env},
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    let sent = false
    child.stdout.on('data', (c: Buffer) => (stdout += c))
    child.stderr.on('data', async (c: Buffer) => {
      stderr += c
      if (!sent && when.test(stderr)) {
        sent = true
        await before?.()
        child.kill('SIGINT')
      }
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), 40_000)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({code, signal, stdout, stderr})
    })
  })
}
