import {randomBytes} from 'node:crypto'
import {existsSync, readFileSync} from 'node:fs'
import type {Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {join} from 'node:path'
import {ensurePrivateDir, writePrivateFileAtomic} from '../lib/fs-safe.js'
import {API_VERSION} from '../lib/paths.js'
import {Clock, machineTime} from './clock.js'
import {contextFor, savePlatformConfig, type Reactions, type SandboxContext} from './context.js'
import {DataFileError, checkDatabaseNotLost, dataDirWarning} from './data-files.js'
import {followTransaction} from './domain/agent-actions.js'
import {registerImportJobs} from './domain/bulk-import.js'
import {registerCardTransactionJobs} from './domain/card-simulators.js'
import {registerCardJobs} from './domain/cards.js'
import {registerExternalAccountJobs} from './domain/external-accounts.js'
import {registerIncomingJobs} from './domain/incoming-uma.js'
import {onCustomerCreated, registerKycJobs} from './domain/kyc-decisions.js'
import {registerOwnershipJobs} from './domain/ownership.js'
import {registerQuoteJobs} from './domain/quotes.js'
import {DEFAULT_RETENTION, registerRetentionJobs, type Retention} from './domain/retention.js'
import {registerScaQuoteJobs, scaGate} from './domain/sca-quotes.js'
import {requireScaSession} from './domain/sca.js'
import {registerScaResetJobs} from './domain/sca-reset.js'
import {registerStablecoinSettler} from './domain/stablecoin-operations.js'
import {registerTransactionJobs} from './domain/transactions.js'
import {checkWalletQuoteSignature} from './domain/wallet/quote-signing.js'
import {registerSettler} from './domain/wallet/signed-retry-settle.js'
import {provisionEmbeddedWallet} from './domain/wallet/state.js'
import {HttpError} from './http-error.js'
import type {Principal} from './principal.js'
import {Router, type EmuResponse} from './router.js'
import {registerRoutes} from './routes/index.js'
import {Scheduler} from './scheduler.js'
import {lockDataDir} from './serve-lock.js'
import {defaultConfig, effectiveSettings, type PlatformConfig, type SandboxSettings} from './settings.js'
import {createListener, schemeOf, type TlsIdentity} from './listener.js'
import {LogFile, type LogLimit} from './log-file.js'
import {handleHttp, type Credentials, type ObservedRequest, type ServerHost} from './server.js'
import {DB_FILE, Db} from './store/db.js'
import {loadWebhookKey} from './webhook-key.js'
import {Webhooks} from './webhooks.js'
import {dropGoneListener} from './domain/webhook-listener.js'

export type {Credentials, ObservedRequest}

export interface EmulatorOptions {
  dataDir: string
  port?: number
  host?: string
  /** The machine's time as the sandbox clock sees it (tests fix it); the clock's mode and offset apply on top. */
  now?: () => number
  /** Where log lines go (stderr of `svc sandbox serve`); they are also appended to <dataDir>/emulator.log. */
  log?: (line: string) => void
  /** Settings applied when the data dir is new (tests use short delays). */
  settings?: Partial<SandboxSettings>
  /** Keep a log of every request's method and path in `requests` (tests prove nothing was sent). */
  recordRequests?: boolean
  /**
   * Set by the multi-sandbox server (multi/), which serves this instance without a listener of its
   * own: the base URL it is reached at (hosted-page links are made from it).
   */
  baseUrl?: string
  /** Serve HTTPS with this certificate (`svc sandbox serve --tls`). */
  tls?: TlsIdentity
  /** The caller already holds this data dir's serve.lock (the multi server holds its root's, which is the default sandbox's dir). */
  dirLocked?: boolean
  /** How long records that only matter for a while are kept (domain/retention.ts); defaults for what is not given. */
  retention?: Partial<Retention>
  /** When emulator.log is rotated, and how many old files are kept (log-file.ts). */
  logLimit?: LogLimit
  /** How long a write waits for another process's lock before it is refused as busy (default 5 s; tests shorten it). */
  lockWaitMs?: number
}

/**
 * The local sandbox, and its composition root: one process holding the durable state (SQLite,
 * store/), the scheduler for asynchronous outcomes, the webhook outbox, and the HTTP server under
 * /2025-10-13. The constructor wires routes, jobs and reactions; nothing else does, so what
 * creating a customer sets off is read here. Route and domain code never see this class: each
 * request gets a `SandboxContext` (context.ts) with its principal. The instance itself is the
 * `system` context (jobs, reactions, and tests that drive domain functions directly).
 */
export class Emulator implements SandboxContext, ServerHost {
  readonly principal: Principal = {kind: 'system'}
  readonly db: Db
  readonly scheduler: Scheduler
  readonly webhooks: Webhooks
  readonly reactions: Reactions
  readonly router = new Router()
  readonly dataDir: string
  readonly credentials: Credentials
  readonly webhookPublicKeyPem: string
  readonly clock: Clock
  /** Every request seen (method and path) when `recordRequests` is on; otherwise stays empty. */
  readonly requests: Array<{method: string; path: string}> = []
  /** Optional observer of every answer sent under the API prefix (the tests' contract check); unset, it costs nothing. */
  onResponse?: (request: ObservedRequest, response: EmuResponse) => void
  private server?: Server
  private readonly logSink?: (line: string) => void
  private logFile?: LogFile
  /** This run's retention (`svc sandbox serve --idempotency-retention`, `--event-retention`). */
  readonly retention: Retention
  private readonly sockets = new Set<import('node:net').Socket>()

  private readonly dirLock: ReturnType<typeof lockDataDir>

  private constructor(readonly opts: EmulatorOptions) {
    ensurePrivateDir(opts.dataDir)
    this.dirLock = opts.dirLocked ? {setUrl: () => {}, release: () => {}} : lockDataDir(opts.dataDir)
    try {
      this.dataDir = opts.dataDir
      this.logSink = opts.log
      this.logFile = new LogFile(join(opts.dataDir, 'emulator.log'), opts.logLimit)
      this.retention = {...DEFAULT_RETENTION, ...opts.retention}
      const hadCredentials = existsSync(join(opts.dataDir, 'credentials.json'))
      this.credentials = loadCredentials(opts.dataDir)
      if (hadCredentials) checkDatabaseNotLost(opts.dataDir, DB_FILE)
      const key = loadWebhookKey(opts.dataDir)
      this.webhookPublicKeyPem = key.publicKeyPem
      this.db = Db.open(opts.dataDir, (line) => this.log(line), {lockWaitMs: opts.lockWaitMs})
      this.clock = new Clock(this.db, opts.now)
      this.clock.ensureStored()
      const openDir = dataDirWarning(opts.dataDir)
      if (openDir) this.log(openDir)
      if (!this.db.get('config', 'platform'))
        this.db.put('config', 'platform', defaultConfig(this.iso(), opts.settings))
      this.scheduler = new Scheduler(this.db, this.clock, (e) =>
        this.log(`job failed: ${(e as Error).stack ?? String(e)}`),
      )
      this.webhooks = new Webhooks(this, key.privateKey)

      // Reactions: what else happens when something happens (context.ts says when each runs).
      this.reactions = {
        // A new customer: the skip-paperwork KYC decision, then its embedded wallet.
        customerCreated: [onCustomerCreated, provisionEmbeddedWallet],
        // An agent's transaction changed status: the agent action behind it follows.
        agentTransactionChanged: [followTransaction],
        // A new quote: strong customer authentication needs a login session.
        quoteChecks: [requireScaSession],
        // Execute: an embedded-wallet source needs its Service-Wallet-Signature stamp ...
        executeChecks: [checkWalletQuoteSignature],
        // ... and an SCA customer's payment is held for authorization.
        executeGates: [scaGate],
      }
      // Jobs: durable delayed work of the kinds jobs.ts lists, each kind's handler registered with the scheduler (run as system).
      for (const registerJobs of [
        registerKycJobs,
        registerQuoteJobs,
        registerTransactionJobs,
        registerIncomingJobs,
        registerExternalAccountJobs,
        registerOwnershipJobs,
        registerImportJobs,
        registerCardJobs,
        registerCardTransactionJobs,
        registerScaQuoteJobs,
        registerScaResetJobs,
        registerStablecoinSettler,
        registerSettler,
        (ctx: SandboxContext) => registerRetentionJobs(ctx, this.retention),
      ])
        registerJobs(this)
      this.scheduler.complete()
      // Operations: each resource module binds its handlers to the operation table (routes/index.ts);
      // an entry left without one stops the start here, never a request later.
      registerRoutes(this.router)
      this.router.complete()
      this.scheduler.start()
      // A listener that stopped while this sandbox was down could not put the endpoint back: do it now.
      if (this.db.get('config', 'webhookListener')) void this.dropGoneListener()
      this.webhooks.start()
    } catch (e) {
      this.dirLock.release()
      throw e
    }
  }

  static async start(opts: EmulatorOptions): Promise<Emulator> {
    const emu = new Emulator(opts)
    try {
      await emu.listen(opts.port ?? 4010, opts.host ?? '127.0.0.1')
    } catch (e) {
      await emu.close()
      throw e
    }
    emu.dirLock.setUrl(emu.url)
    return emu
  }

  /** An instance served by someone else's listener (the multi-sandbox server): wired and running, but not listening. */
  static open(opts: EmulatorOptions & {baseUrl: string}): Emulator {
    return new Emulator(opts)
  }

  private listen(port: number, host: string): Promise<void> {
    const server = createListener(this.opts.tls, this.sockets, (req, res) => void handleHttp(this, req, res))
    this.server = server
    return new Promise((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, host, () => resolve())
    })
  }

  get port(): number {
    return (this.server?.address() as AddressInfo).port
  }

  get url(): string {
    if (this.opts.baseUrl) return this.opts.baseUrl
    return `${schemeOf(this.opts.tls)}://127.0.0.1:${this.port}/${API_VERSION}`
  }

  /** The context a request runs in: this sandbox's services, and who is calling. */
  context(principal: Principal): SandboxContext {
    return principal.kind === 'system' ? this : contextFor(this, principal)
  }

  system(): SandboxContext {
    return this
  }

  /** A delivery to `url` found nothing listening: if it is a registered listener whose process is gone, its registration ends. */
  readonly unreachable = (url: string): void => {
    const r = this.db.get<{url: string}>('config', 'webhookListener')
    if (r?.url === url) void this.dropGoneListener()
  }

  private async dropGoneListener(): Promise<void> {
    await this.db
      .unit(() => dropGoneListener(this))
      .catch((e: unknown) => this.log(`listener check failed: ${String(e)}`))
  }

  // Arrow properties, so a context can hand them on unbound.
  /** The sandbox clock's time (before the database is open, while it logs its opening: the machine's). */
  readonly now = (): number => (this.clock ? this.clock.now() : (this.opts.now ?? machineTime)())

  readonly iso = (ms = this.now()): string => new Date(ms).toISOString()

  readonly config = (): PlatformConfig => this.db.get<PlatformConfig>('config', 'platform')!

  readonly settings = (): SandboxSettings => effectiveSettings(this.config().sandbox)

  readonly saveConfig = (next: PlatformConfig): PlatformConfig =>
    savePlatformConfig(this.db, this.webhooks, next, this.iso())

  readonly log = (line: string): void => {
    const stamped = `${this.iso()} ${line}`
    this.logSink?.(stamped)
    this.logFile?.append(stamped)
  }

  /** A consistent copy of the database in `file`, taken while serving. */
  backup(file: string): Promise<void> {
    return this.db.backup(file)
  }

  async close(): Promise<void> {
    this.scheduler.stop()
    this.webhooks.stop()
    await new Promise<void>((resolve) => {
      if (!this.server) return resolve()
      this.server.close(() => resolve())
      for (const s of this.sockets) s.destroy()
    })
    await this.db.close()
    this.dirLock.release()
  }
}

function loadCredentials(dataDir: string): Credentials {
  const path = join(dataDir, 'credentials.json')
  if (existsSync(path)) {
    try {
      const c = JSON.parse(readFileSync(path, 'utf8')) as Partial<Credentials>
      if (typeof c.tokenId === 'string' && typeof c.clientSecret === 'string' && c.tokenId && c.clientSecret)
        return {tokenId: c.tokenId, clientSecret: c.clientSecret}
    } catch {
      // reported below
    }
    throw new DataFileError(
      path,
      'is not valid sandbox credentials ({"tokenId", "clientSecret"})',
      'Restore it from a backup, or delete it to have new credentials made (profiles and scripts holding the old ones must then be updated).',
    )
  }
  const creds = {
    tokenId: `local_${randomBytes(6).toString('hex')}`,
    clientSecret: `sk_local_${randomBytes(24).toString('hex')}`,
  }
  writePrivateFileAtomic(path, JSON.stringify(creds, null, 2))
  return creds
}

export {HttpError}
