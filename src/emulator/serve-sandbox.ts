import type {ReadyLine} from '../lib/sandbox-process.js'
import type {FaultSettings} from '../lib/schemas/faults.js'
import type {Retention} from './domain/retention.js'
import type {Emulator} from './emulator.js'
import type {LogLimit} from './log-file.js'
import type {SandboxSettings} from './settings.js'

/**
 * `svc sandbox serve` in the foreground: one sandbox, or with `multi` a team server whose data dir is
 * the default sandbox. Start-up errors are thrown as they are; the command explains them. A file of
 * its own with type-only imports (not entry.ts, whose store helpers would load beside it), so that a
 * start loads the sandbox's code only through load.ts's one-file build.
 */
export async function serveSandbox(opts: {
  dataDir: string
  port: number
  log: (line: string) => void
  /** For a new data dir only; an existing one keeps its own. */
  settings: Partial<SandboxSettings>
  /** This run's faults: set, or cleared to `noFaults`, at every start. */
  faults: FaultSettings
  /** What a data dir that stores no faults has (NO_FAULTS, passed in to keep imports type-only). */
  noFaults: FaultSettings
  multi?: boolean
  idleMs?: number
  /** Serve HTTPS with the data dir's own CA (tls/local-ca.ts). */
  tls?: boolean
  /** This run's retention and log rotation (every sandbox of a multi server alike); defaults for what is not given. */
  retention?: Partial<Retention>
  logLimit?: LogLimit
}): Promise<{ready: ReadyLine; close(): Promise<void>}> {
  const {dataDir, port, log, settings, retention, logLimit} = opts
  const identity = opts.tls ? (await import('./tls/local-ca.js')).sandboxTls(dataDir) : undefined
  const tls = identity && {cert: identity.cert, key: identity.key}
  let emu: Emulator
  let server: {close(): Promise<void>}
  let adminSecret: string | undefined
  if (opts.multi) {
    const {MultiServer} = await import('./multi/server.js')
    const multi = await MultiServer.start({dataDir, port, log, settings, idleMs: opts.idleMs, tls, retention, logLimit})
    ;[server, emu, adminSecret] = [multi, await multi.defaultSandbox(), multi.admin.clientSecret]
  } else {
    const {Emulator} = await (await import('./load.js')).loadEmulator()
    server = emu = await Emulator.start({dataDir, port, log, settings, tls, retention, logLimit})
  }
  // Unlike the other settings (new data dirs only), faults are for this run: set (or cleared) at every start.
  if (JSON.stringify(emu.settings().faults ?? opts.noFaults) !== JSON.stringify(opts.faults))
    emu.saveConfig({...emu.config(), sandbox: {...emu.settings(), faults: opts.faults}})
  const ready: ReadyLine = {
    url: emu.url,
    tokenId: emu.credentials.tokenId,
    clientSecret: emu.credentials.clientSecret,
    webhookPublicKey: emu.webhookPublicKeyPem,
    ...(identity ? {caFile: identity.caFile} : {}),
    ...(adminSecret ? {adminSecret} : {}),
  }
  return {ready, close: () => server.close()}
}
