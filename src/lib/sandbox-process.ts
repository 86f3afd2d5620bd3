import {existsSync, readFileSync, rmSync, openSync, closeSync, statSync} from 'node:fs'
import {basename, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {SvcError} from './errors.js'
import {ExitCode, type ExitCodeValue} from './exit-codes.js'
import {ensurePrivateDir, writePrivateFileAtomic} from './fs-safe.js'
import {currentEnv} from './io.js'

export interface ReadyLine {
  url: string
  tokenId: string
  clientSecret: string
  webhookPublicKey: string
  /** `serve --tls` only: the CA that issued the sandbox's certificate (PEM, 0600 in the data dir). */
  caFile?: string
  /** `serve --multi` only: the admin credential's secret (HTTP Basic admin:<secret>) for the /sandbox/sandboxes routes. */
  adminSecret?: string
}

export const pidFile = (dataDir: string) => join(dataDir, 'sandbox.pid')
export const readyFile = (dataDir: string) => join(dataDir, 'sandbox.json')
/** `serve --tls`: the sandbox's own CA and certificate live here (made on first start, 0600). */
export const sandboxTlsDir = (dataDir: string) => join(dataDir, 'tls')
export const sandboxCaFile = (dataDir: string) => join(sandboxTlsDir(dataDir), 'ca.pem')

export function runningPid(dataDir: string): number | undefined {
  const path = pidFile(dataDir)
  if (!existsSync(path)) return undefined
  const pid = Number(readFileSync(path, 'utf8').trim())
  if (!Number.isInteger(pid) || pid <= 0) return undefined
  if (maybeSandbox(pid, statSync(path).mtimeMs)) return pid
  rmSync(path, {force: true})
  return undefined
}

/** The URL the running sandbox of this data dir recorded at start; undefined when none runs (a stale record is ignored). */
export function recordedSandboxUrl(dataDir: string): string | undefined {
  if (!runningPid(dataDir)) return undefined
  try {
    const url = (JSON.parse(readFileSync(readyFile(dataDir), 'utf8')) as Partial<ReadyLine>).url
    return typeof url === 'string' ? url : undefined
  } catch {
    return undefined
  }
}

export function recordRunning(dataDir: string, ready: ReadyLine): void {
  writePrivateFileAtomic(pidFile(dataDir), String(process.pid))
  writePrivateFileAtomic(readyFile(dataDir), JSON.stringify(ready))
}

export function clearRunning(dataDir: string): void {
  rmSync(pidFile(dataDir), {force: true})
  rmSync(readyFile(dataDir), {force: true})
}

/** Set in the environment of the `svc sandbox serve` that `--detach` starts. */
export const DETACHED_ENV = 'SVC_SANDBOX_DETACHED'

/** Starts `svc sandbox serve --json` in the background and resolves with its ready line. */
export async function startDetached(
  args: string[],
  dataDir: string,
  timeoutMs = 15_000,
): Promise<ReadyLine & {pid: number}> {
  const bin = fileURLToPath(new URL('../../bin/run.js', import.meta.url))
  ensurePrivateDir(dataDir) // a first start: the log below lives in it
  const logFd = openSync(join(dataDir, 'sandbox.out'), 'a', 0o600)
  // node:child_process on use: config.ts reads this module's records on every command, and only
  // `sandbox serve --detach` spawns.
  const child = process
    .getBuiltinModule('node:child_process')
    .spawn(process.execPath, [bin, 'sandbox', 'serve', '--json', ...args], {
      detached: true,
      stdio: ['ignore', 'pipe', logFd],
      // sandbox.out keeps what the child says before it is ready (why it could not start); its log
      // lines go to emulator.log only, which is rotated by size, where sandbox.out would grow for ever.
      env: {...currentEnv(), [DETACHED_ENV]: '1'},
    })
  closeSync(logFd)
  return new Promise((resolve, reject) => {
    let buf = ''
    const timer = setTimeout(() => {
      child.kill()
      reject(
        new SvcError({
          code: 'SANDBOX_START_FAILED',
          exitCode: ExitCode.FAILED,
          message: `The sandbox did not start within ${timeoutMs / 1000}s`,
          hint: `See ${join(dataDir, 'sandbox.out')}`,
        }),
      )
    }, timeoutMs)
    child.stdout!.on('data', (chunk: Buffer) => {
      buf += chunk.toString('utf8')
      const ready = readyLine(buf)
      if (!ready) return // not (yet) a ready line: an error document is read whole when the child ends
      clearTimeout(timer)
      child.stdout!.destroy()
      child.unref()
      resolve({...ready, pid: child.pid!})
    })
    // 'close', not 'exit': stdout (the child's error document) is fully read by then.
    child.on('close', (code) => {
      clearTimeout(timer)
      reject(startFailure(buf, code, join(dataDir, 'sandbox.out')))
    })
  })
}

/** The first line of `out` when it is the sandbox's ready line (one line of JSON with its URL). */
function readyLine(out: string): ReadyLine | undefined {
  const nl = out.indexOf('\n')
  if (nl < 0) return undefined
  try {
    const line = JSON.parse(out.slice(0, nl)) as Partial<ReadyLine>
    return typeof line.url === 'string' ? (line as ReadyLine) : undefined
  } catch {
    return undefined
  }
}

/**
 * Why the sandbox ended before it was ready: the error document it printed (a taken port, a bad
 * data dir: its reason, hint and exit code, as a foreground `serve` says them), else its exit code
 * and the log to read.
 */
function startFailure(out: string, code: number | null, log: string): SvcError {
  try {
    const {error} = JSON.parse(out) as {
      error: {code: string; reason: string; hint?: string; details?: Record<string, unknown>}
    }
    const exitCode = (Object.values(ExitCode) as number[]).includes(code ?? -1)
      ? (code as ExitCodeValue)
      : ExitCode.FAILED
    return new SvcError({code: error.code, exitCode, message: error.reason, hint: error.hint, details: error.details})
  } catch {
    return new SvcError({
      code: 'SANDBOX_START_FAILED',
      exitCode: ExitCode.FAILED,
      message: `The sandbox exited with code ${code} before it was ready`,
      hint: `See ${log}`,
    })
  }
}

/** Sends SIGTERM and waits for the process to go. */
export async function stopProcess(pid: number, timeoutMs = 10_000): Promise<boolean> {
  try {
    process.kill(pid, 'SIGTERM')
  } catch {
    return false
  }
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    if (!isAlive(pid)) return true
    await new Promise((r) => setTimeout(r, 50))
  }
  process.kill(pid, 'SIGKILL')
  return true
}

/**
 * A detached sandbox is re-parented when the starting shell exits; until its new parent reaps it,
 * an exited one lingers as a zombie that `kill(pid, 0)` still finds (seconds under some inits).
 */
/**
 * Whether the live process `pid`, named in a file written at `writtenAt` (ms), can be the sandbox
 * that wrote it. Not if it started after the file was written (the pid was reused: a reboot, a
 * kill -9 long ago), nor if it is not a Node process (a sandbox is one, whatever started it).
 * Without /proc (macOS) only liveness is known, and a live pid is taken at its word.
 */
export function maybeSandbox(pid: number, writtenAt: number): boolean {
  if (!isAlive(pid)) return false
  if (pid === process.pid) return true
  const started = processStart(pid)
  // btime has one-second resolution, and clocks get stepped: two seconds of grace.
  if (started !== undefined && started > writtenAt + 2000) return false
  try {
    const argv0 = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? ''
    if (argv0 && !/node|svc/i.test(basename(argv0))) return false
  } catch {
    // no /proc, or the process ended meanwhile: liveness decided above
  }
  return true
}

/** When `pid` started (epoch ms), from /proc: boot time plus its start in clock ticks (USER_HZ, 100 on Linux). */
function processStart(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19])
    const btime = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1])
    return Number.isFinite(ticks) && btime ? btime * 1000 + ticks * 10 : undefined
  } catch {
    return undefined
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z'
  } catch {
    return true
  }
}
