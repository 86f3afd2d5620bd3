import {readFileSync} from 'node:fs'
import {Flags} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'
import {InputError, SvcError, usageError} from '../../lib/errors.js'
import {ExitCode} from '../../lib/exit-codes.js'
import {parseDuration} from '../../lib/duration.js'
import {sandboxDataDir} from '../../lib/paths.js'
import {renderKeyValue} from '../../lib/output/render.js'
import {NO_FAULTS, faultSettings, faultSpecToObject, type FaultSettings} from '../../lib/schemas/faults.js'
import {fieldErrors} from '../../lib/schemas/field-errors.js'
import {
  clearRunning,
  readyFile,
  recordRunning,
  runningPid,
  startDetached,
  type ReadyLine,
} from '../../lib/sandbox-process.js'
import {asSandboxDataError} from '../../lib/sandbox-store.js'

export default class SandboxServe extends BaseCommand<typeof SandboxServe> {
  static override handlesInterrupt = true
  static override summary = 'Run the local sandbox: a stateful implementation of the Service sandbox on 127.0.0.1'
  static override description =
    'Listens on 127.0.0.1 under /2025-10-13 with HTTP Basic credentials it prints at start. State lives in one SQLite database in --data-dir (every request atomic and durable before it is answered) and survives restarts, kill -9 included. ' +
    'With --json it prints exactly one line when ready: {"url","tokenId","clientSecret","webhookPublicKey"} (plus "pid" with --detach). ' +
    'In the foreground it keeps serving and stdout stays open, so read the line from a file, not `$(...)`; with --detach the command prints the line and ends. ' +
    'The running sandbox records its URL in --data-dir: the `local` profile follows it, whatever --port picked.'
  static override examples = [
    '<%= config.bin %> sandbox serve',
    '<%= config.bin %> sandbox serve --detach --port 0',
    'eval "$(<%= config.bin %> sandbox serve --detach --port 0 --json | jq -r \'"export SVC_BASE_URL=\\(.url) SVC_TOKEN_ID=\\(.tokenId) SVC_CLIENT_SECRET=\\(.clientSecret)"\')"',
  ]
  static override flags = {
    port: Flags.integer({description: 'port on 127.0.0.1 (0 picks a free one)', default: 4010, min: 0, max: 65535}),
    'data-dir': Flags.string({description: 'where the database lives (default: the user data dir)'}),
    detach: Flags.boolean({description: 'run in the background with a pid file; stop with `svc sandbox stop`'}),
    'decision-delay': Flags.integer({description: 'ms before KYC/KYB decisions land (new data dirs only)'}),
    'webhook-retry-base': Flags.integer({
      description: 'ms before the first webhook retry, doubling each time (new data dirs only)',
      min: 1,
    }),
    faults: Flags.string({
      description:
        'inject faults before any state change: rate5xx=P (503), rate429=P (with Retry-After), reset=P, latency=MS, retryAfter=S',
    }),
    multi: Flags.boolean({
      description:
        'serve many isolated sandboxes from this one process (a team server): the data dir is the default sandbox, others are made with `svc sandbox create`; the ready line adds "adminSecret"',
    }),
    'idle-close': Flags.string({
      description: 'with --multi: close a sandbox that has served nothing this long (it reopens on its next request)',
      dependsOn: ['multi'],
    }),
    'faults-seed': Flags.integer({
      description: 'seed of the fault PRNG, so a run is repeatable',
      min: 0,
      max: 2 ** 32 - 1,
      dependsOn: ['faults'],
    }),
  }

  async run(): Promise<ReadyLine | undefined> {
    const f = this.flags
    const dataDir = f['data-dir'] ?? sandboxDataDir()
    const faults = f.faults === undefined ? undefined : parseFaultsFlag(f.faults, f['faults-seed'])
    const idleMs = f['idle-close'] === undefined ? undefined : parseDuration(f['idle-close'])
    if (f['idle-close'] !== undefined && idleMs === undefined)
      throw usageError(`--idle-close: "${f['idle-close']}" is not a duration (e.g. 500ms, 30s, 5m)`)
    const running = runningPid(dataDir)
    if (running && running !== process.pid) throw sandboxRunning(dataDir, running, recordedUrl(dataDir))
    if (f.detach) {
      const args = ['--port', String(f.port), '--data-dir', dataDir]
      for (const name of ['decision-delay', 'webhook-retry-base'] as const)
        if (f[name] !== undefined) args.push(`--${name}`, String(f[name]))
      if (f.multi) args.push('--multi', ...(f['idle-close'] ? ['--idle-close', f['idle-close']] : []))
      if (faults)
        args.push(
          '--faults',
          f.faults!,
          ...(f['faults-seed'] === undefined ? [] : ['--faults-seed', String(f['faults-seed'])]),
        )
      const ready = await startDetached(args, dataDir)
      this.out.success(`Local sandbox running in the background (pid ${ready.pid}) at ${ready.url}`)
      this.out.info(this.out.dim('Stop it with `svc sandbox stop`.'))
      // Same contract as the foreground ready line: exactly one line of JSON (plus the pid).
      if (this.jsonEnabled()) this.out.write(JSON.stringify(ready) + '\n')
      else
        renderKeyValue(this.out, [
          ['url', ready.url],
          ['tokenId', ready.tokenId],
        ])
      return undefined
    }
    const settings = {
      ...(f['decision-delay'] !== undefined ? {decisionDelayMs: f['decision-delay']} : {}),
      ...(f['webhook-retry-base'] !== undefined ? {webhookRetryBaseMs: f['webhook-retry-base']} : {}),
    }
    const log = (line: string) => process.stderr.write(this.out.dim(line) + '\n')
    let emu
    let server: {close(): Promise<void>}
    let adminSecret: string | undefined
    try {
      if (f.multi) {
        const {MultiServer} = await import('../../emulator/multi/server.js')
        const multi = await MultiServer.start({dataDir, port: f.port, log, settings, idleMs})
        ;[server, emu, adminSecret] = [multi, await multi.defaultSandbox(), multi.admin.clientSecret]
      } else {
        const {Emulator} = await (await import('../../emulator/load.js')).loadEmulator()
        server = emu = await Emulator.start({dataDir, port: f.port, log, settings})
      }
    } catch (e) {
      if ((e as Error).name === 'SandboxInUseError') {
        const busy = e as Error & {pid: number; url?: string}
        throw sandboxRunning(dataDir, busy.pid, busy.url)
      }
      if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE')
        throw usageError(
          `Port ${f.port} is in use`,
          'Is a sandbox already running? `svc sandbox stop`, or pick another --port (0 = any free port).',
        )
      throw asSandboxDataError(e) ?? e
    }
    // Unlike the other settings (new data dirs only), faults are for this run: set (or cleared) at every start.
    const wanted = faults ?? NO_FAULTS
    if (JSON.stringify(emu.settings().faults ?? NO_FAULTS) !== JSON.stringify(wanted))
      emu.saveConfig({...emu.config(), sandbox: {...emu.settings(), faults: wanted}})
    const ready: ReadyLine = {
      url: emu.url,
      tokenId: emu.credentials.tokenId,
      clientSecret: emu.credentials.clientSecret,
      webhookPublicKey: emu.webhookPublicKeyPem,
      ...(adminSecret ? {adminSecret} : {}),
    }
    recordRunning(dataDir, ready)
    if (this.jsonEnabled()) this.out.write(JSON.stringify(ready) + '\n')
    else {
      this.out.info(`Local sandbox listening on ${this.out.bold(emu.url)}  (data: ${dataDir})`)
      this.out.info(
        `  SVC_BASE_URL=${emu.url}\n  SVC_TOKEN_ID=${ready.tokenId}\n  SVC_CLIENT_SECRET=${ready.clientSecret}`,
      )
      this.out.info(
        `Webhook public key (X-Service-Signature, ECDSA P-256 / SHA-256):\n${ready.webhookPublicKey.trim()}`,
      )
      if (adminSecret)
        this.out.info(
          `Team sandboxes (--multi): manage them with \`svc sandbox create/list/delete\`; admin secret: ${adminSecret}`,
        )
      this.out.info(this.out.dim('Ctrl-C to stop.'))
    }
    await new Promise<void>((resolve) => {
      const stop = () => resolve()
      process.once('SIGINT', stop)
      process.once('SIGTERM', stop)
    })
    await server.close()
    clearRunning(dataDir)
    return undefined
  }
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

/** A second server on a data dir already served would fight the first for its database: refused at start (exit 1). */
function sandboxRunning(dataDir: string, pid: number, url?: string): SvcError {
  return new SvcError({
    code: 'SANDBOX_RUNNING',
    exitCode: ExitCode.FAILED,
    message: `A sandbox is already serving ${dataDir} (pid ${pid}${url ? `, ${url}` : ''})`,
    details: {dataDir, pid, ...(url ? {url} : {})},
    hint: 'Use it as it is, stop it with `svc sandbox stop`, or serve another directory with --data-dir.',
  })
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
