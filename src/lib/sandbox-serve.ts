import {readFileSync} from 'node:fs'
import {resolve} from 'node:path'
import {InputError, SvcError, usageError} from './errors.js'
import {ExitCode} from './exit-codes.js'
import {parseDuration} from './duration.js'
import type {Output} from './output/output.js'
import {renderKeyValue} from './output/render.js'
import {NO_FAULTS, faultSettings, faultSpecToObject, type FaultSettings} from './schemas/faults.js'
import {fieldErrors} from './schemas/field-errors.js'
import {readyFile, runningPid, type ReadyLine} from './sandbox-process.js'
import {
  parseRetentionFlags,
  RETENTION_FLAG_NAMES,
  type RetentionFlags,
  type RetentionSettings,
} from './serve-retention.js'
import {asSandboxDataError} from './sandbox-store.js'
import {currentEnv, io} from './io.js'
import {sandboxDataDir} from './paths.js'
import {shellQuote} from './history/command-line.js'

/** `svc sandbox serve`'s flags, as the command parsed them. */
export interface ServeFlags extends RetentionFlags {
  port: number
  detach?: boolean
  multi?: boolean
  tls?: boolean
  faults?: string
  'faults-seed'?: number
  'idle-close'?: string
  'decision-delay'?: number
  'webhook-retry-base'?: number
}

/**
 * The flags oclif cannot check alone, checked before anything starts: --faults, --idle-close and
 * the retention flags. `faults` is this run's (none: NO_FAULTS, which `noFaults` also names for the sandbox side).
 */
export function checkServeFlags(
  f: ServeFlags,
): {faults: FaultSettings; noFaults: FaultSettings; idleMs?: number} & RetentionSettings {
  const kept = parseRetentionFlags(f)
  const faults = f.faults === undefined ? NO_FAULTS : parseFaultsFlag(f.faults, f['faults-seed'])
  const idleMs = f['idle-close'] === undefined ? undefined : parseDuration(f['idle-close'])
  if (f['idle-close'] !== undefined && idleMs === undefined)
    throw usageError(`--idle-close: "${f['idle-close']}" is not a duration (e.g. 500ms, 30s, 5m)`)
  return {faults, noFaults: NO_FAULTS, idleMs, ...kept}
}

function parseFaultsFlag(spec: string, seed: number | undefined): FaultSettings {
  const r = faultSettings.safeParse({...faultSpecToObject(spec), ...(seed === undefined ? {} : {seed})})
  if (!r.success)
    throw new InputError(
      fieldErrors(r.error, 'faults'),
      undefined,
      'Example: --faults rate5xx=0.1,rate429=0.05,latency=200ms,reset=0.01',
    )
  return r.data
}

/** The settings a new data dir takes from the flags (an existing one keeps its own). */
export function newDirSettings(f: ServeFlags): {decisionDelayMs?: number; webhookRetryBaseMs?: number} {
  return {
    ...(f['decision-delay'] !== undefined ? {decisionDelayMs: f['decision-delay']} : {}),
    ...(f['webhook-retry-base'] !== undefined ? {webhookRetryBaseMs: f['webhook-retry-base']} : {}),
  }
}

/** The arguments the detached child is started with: the same serve, in the foreground, with --json. */
export function detachedArgs(f: ServeFlags, dataDir: string): string[] {
  const args = ['--port', String(f.port), '--data-dir', dataDir]
  for (const name of ['decision-delay', 'webhook-retry-base'] as const)
    if (f[name] !== undefined) args.push(`--${name}`, String(f[name]))
  for (const name of RETENTION_FLAG_NAMES) if (f[name] !== undefined) args.push(`--${name}`, String(f[name]))
  if (f.tls) args.push('--tls')
  if (f.multi) args.push('--multi', ...(f['idle-close'] ? ['--idle-close', f['idle-close']] : []))
  if (f.faults !== undefined)
    args.push(
      '--faults',
      f.faults,
      ...(f['faults-seed'] === undefined ? [] : ['--faults-seed', String(f['faults-seed'])]),
    )
  return args
}

/** Refuses to serve a data dir another live process serves (this process, the detached child itself, may). */
export function refuseIfServed(dataDir: string): void {
  const running = runningPid(dataDir)
  if (running && running !== process.pid) throw sandboxRunning(dataDir, running, recordedUrl(dataDir))
}

/** A start-up failure as the user must act on it: the data dir already served, the port taken, a damaged store. */
export function explainStartError(e: unknown, dataDir: string, port: number): unknown {
  if ((e as Error).name === 'SandboxInUseError') {
    const busy = e as Error & {pid: number; url?: string}
    return sandboxRunning(dataDir, busy.pid, busy.url)
  }
  if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE')
    return usageError(
      `Port ${port} is in use`,
      'Is a sandbox already running? `svc sandbox stop`, or pick another --port (0 = any free port).',
    )
  return asSandboxDataError(e) ?? e
}

/** The URL the running sandbox recorded in its ready file, if it did. */
function recordedUrl(dataDir: string): string | undefined {
  try {
    const url = (JSON.parse(readFileSync(readyFile(dataDir), 'utf8')) as {url?: unknown}).url
    return typeof url === 'string' ? url : undefined
  } catch {
    return undefined
  }
}

/**
 * A second server on a data dir already served would fight the first for its database: refused at
 * start as a conflict with the running one (exit 6), not a failure. Not "0, already running": this
 * run's flags (--port, --faults, --tls ...) would be silently ignored and its ready line would be
 * the other process's.
 */
function sandboxRunning(dataDir: string, pid: number, url?: string): SvcError {
  return new SvcError({
    code: 'SANDBOX_RUNNING',
    exitCode: ExitCode.CONFLICT,
    message: `A sandbox is already serving ${dataDir}${pid ? ` (pid ${pid}${url ? `, ${url}` : ''})` : ' (it is still starting)'}`,
    details: {dataDir, ...(pid ? {pid} : {}), ...(url ? {url} : {})},
    hint: 'Use it as it is, stop it with `svc sandbox stop`, or serve another directory with --data-dir.',
  })
}

/**
 * The command that stops the sandbox serving `dataDir`: `svc sandbox stop` finds it by its data dir,
 * so one served from another directory (a team server's, usually) needs that --data-dir too.
 */
export function stopCommand(dataDir: string, env = currentEnv()): string {
  const dir = resolve(dataDir)
  return dir === resolve(sandboxDataDir(env)) ? 'svc sandbox stop' : `svc sandbox stop --data-dir ${shellQuote(dir)}`
}

/** --detach's output: under --json exactly one line (the foreground ready line plus the pid). */
export function renderDetached(out: Output, ready: ReadyLine & {pid: number}, json: boolean, dataDir: string): void {
  out.success(`Local sandbox running in the background (pid ${ready.pid}) at ${ready.url}`)
  out.info(out.dim(`Stop it with \`${stopCommand(dataDir)}\`${ready.adminSecret ? ' (every sandbox it serves)' : ''}.`))
  if (json) out.write(JSON.stringify(ready) + '\n')
  else
    renderKeyValue(out, [
      ['url', ready.url],
      ['tokenId', ready.tokenId],
      ['caFile', ready.caFile],
    ])
}

/** The foreground ready output: under --json exactly one line, else where and how to reach the sandbox. */
export function renderReady(out: Output, ready: ReadyLine, dataDir: string, json: boolean): void {
  if (json) return out.write(JSON.stringify(ready) + '\n')
  out.info(`Local sandbox listening on ${out.bold(ready.url)}  (data: ${dataDir})`)
  out.info(`  SVC_BASE_URL=${ready.url}\n  SVC_TOKEN_ID=${ready.tokenId}\n  SVC_CLIENT_SECRET=${ready.clientSecret}`)
  if (ready.caFile)
    out.info(
      `  HTTPS with the sandbox's own CA: ${ready.caFile} (svc trusts it for the local profile; others: --ca-file)`,
    )
  out.info(`Webhook public key (X-Service-Signature, ECDSA P-256 / SHA-256):\n${ready.webhookPublicKey.trim()}`)
  if (ready.adminSecret)
    out.info(
      `Team sandboxes (--multi): manage them with \`svc sandbox create/list/delete\`; admin secret: ${ready.adminSecret}`,
    )
  out.info(out.dim('Ctrl-C to stop.'))
}

/** Resolves on the first SIGINT or SIGTERM: the foreground server then closes cleanly. */
export function untilStopped(): Promise<void> {
  return new Promise<void>((resolve) => {
    const offs = [io().onSignal('SIGINT', stop), io().onSignal('SIGTERM', stop)]
    function stop() {
      for (const off of offs) off()
      resolve()
    }
  })
}
