import type {IncomingMessage, Server, ServerResponse} from 'node:http'
import type {AddressInfo, Socket} from 'node:net'
import {join} from 'node:path'
import {ensurePrivateDir} from '../../lib/fs-safe.js'
import {API_VERSION} from '../../lib/paths.js'
import type {Emulator, EmulatorOptions} from '../emulator.js'
import type {EmuResponse} from '../context.js'
import {HttpError, errorBody} from '../http-error.js'
import {lockDataDir} from '../serve-lock.js'
import {createListener, schemeOf, send, type TlsIdentity} from '../listener.js'
import {handleHttp} from '../server.js'
import type {SandboxSettings} from '../settings.js'
import {storeFaultOf} from '../store/errors.js'
import {ADMIN_PATH, adminRoute, checkAdmin, loadAdminCredential, type AdminCredential} from './admin.js'
import {DEFAULT_SANDBOX, Tenants} from './tenants.js'

export interface MultiOptions {
  /** The root: the default sandbox's data dir, with the others under sandboxes/. */
  dataDir: string
  port?: number
  host?: string
  log?: (line: string) => void
  /** Settings for sandboxes made empty (a branch keeps its source's). */
  settings?: Partial<SandboxSettings>
  /** Close a sandbox's database, scheduler and deliverer once it has served nothing for this long. */
  idleMs?: number
  recordRequests?: boolean
  now?: () => number
  /** Serve HTTPS with this certificate (`svc sandbox serve --multi --tls`). */
  tls?: TlsIdentity
  /** Retention and emulator.log rotation, for every sandbox alike. */
  retention?: EmulatorOptions['retention']
  logLimit?: EmulatorOptions['logLimit']
}

const PREFIX = `/${API_VERSION}`
/** A sandbox addressed by name: /sandboxes/<name>/2025-10-13/... (hosted pages, agent tokens, tokens made with POST /tokens). */
const BY_NAME = /^\/sandboxes\/([^/]+)(\/.*)?$/

/**
 * `svc sandbox serve --multi`: one listener, many sandboxes. A request's credentials pick its
 * sandbox (the token id of a sandbox's own credentials; anything else goes to the default sandbox,
 * so a single sandbox's URL and credentials work as they did), or its path names it. Each sandbox
 * is an `Emulator` of its own over its own data dir (tenants.ts); the admin routes under
 * /sandbox/sandboxes take the admin credential only.
 */
export class MultiServer {
  readonly tenants: Tenants
  readonly admin: AdminCredential
  private server?: Server
  private sweeper?: NodeJS.Timeout
  private readonly sockets = new Set<Socket>()
  private readonly dirLock: ReturnType<typeof lockDataDir>
  private readonly log: (line: string) => void

  private constructor(readonly opts: MultiOptions) {
    ensurePrivateDir(opts.dataDir)
    this.dirLock = lockDataDir(opts.dataDir)
    this.log = opts.log ?? (() => {})
    try {
      this.admin = loadAdminCredential(opts.dataDir)
      this.tenants = new Tenants({
        root: opts.dataDir,
        origin: () => `${schemeOf(opts.tls)}://127.0.0.1:${this.port}`,
        log: this.log,
        settings: opts.settings,
        recordRequests: opts.recordRequests,
        now: opts.now,
        retention: opts.retention,
        logLimit: opts.logLimit,
      })
    } catch (e) {
      this.dirLock.release()
      throw e
    }
  }

  static async start(opts: MultiOptions): Promise<MultiServer> {
    const multi = new MultiServer(opts)
    try {
      await multi.listen(opts.port ?? 4010, opts.host ?? '127.0.0.1')
      // The default sandbox opens at start, as a single sandbox does: a lost or damaged database is refused now.
      await multi.defaultSandbox()
    } catch (e) {
      await multi.close()
      throw e
    }
    multi.dirLock.setUrl(multi.url)
    const idle = opts.idleMs ?? 5 * 60_000
    multi.sweeper = setInterval(() => void multi.sweep(idle), Math.max(50, Math.min(idle / 2, 30_000)))
    multi.sweeper.unref()
    return multi
  }

  get port(): number {
    return (this.server?.address() as AddressInfo).port
  }

  /** The default sandbox's URL (the one a single sandbox has). */
  get url(): string {
    return `${schemeOf(this.opts.tls)}://127.0.0.1:${this.port}${PREFIX}`
  }

  defaultSandbox(): Promise<Emulator> {
    return this.tenants.open(this.tenants.get(DEFAULT_SANDBOX)!)
  }

  /** Closes the sandboxes idle for `idleMs`; returns their names. */
  async sweep(idleMs: number): Promise<string[]> {
    const closed = await this.tenants.sweep(idleMs)
    if (closed.length) this.log(`closed idle sandboxes: ${closed.join(', ')}`)
    return closed
  }

  private listen(port: number, host: string): Promise<void> {
    const server = createListener(this.opts.tls, this.sockets, (req, res) => void this.dispatch(req, res))
    this.server = server
    return new Promise((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, host, () => resolve())
    })
  }

  private async dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost')
      const byName = BY_NAME.exec(url.pathname)
      let tenant
      if (byName) {
        tenant = this.tenants.get(safeDecode(byName[1]))
        if (!tenant) throw new HttpError(404, 'NOT_FOUND', `No sandbox named "${safeDecode(byName[1])}" on this server`)
        req.url = (byName[2] ?? '/') + url.search
      } else if (url.pathname === PREFIX + ADMIN_PATH || url.pathname.startsWith(PREFIX + ADMIN_PATH + '/')) {
        return await this.adminRequest(req, res, url)
      } else {
        tenant = this.tenants.ofTokenId(basicTokenId(req.headers.authorization)) ?? this.tenants.get(DEFAULT_SANDBOX)!
      }
      await this.tenants.use(tenant, (emu) => handleHttp(emu, req, res))
    } catch (e) {
      // A body we refused to read is not drained: close the connection instead of reading it.
      if (!req.complete) res.setHeader('connection', 'close')
      this.fail(res, e)
    }
  }

  private async adminRequest(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET'
    checkAdmin(this.admin, this.tenants, req.headers.authorization)
    const response = await adminRoute(
      this.tenants,
      method,
      url.pathname.slice(PREFIX.length),
      url.searchParams,
      req,
      join(this.opts.dataDir, 'sandboxes'),
    )
    answer(res, response)
  }

  /** A refusal, or a sandbox that could not be opened (its data damaged or lost): said in the API's error shape. */
  private fail(res: ServerResponse, e: unknown): void {
    if (e instanceof HttpError) return answer(res, {status: e.status, body: e.body(), headers: e.headers})
    const damaged = storeFaultOf(e) === 'damaged' || (e as Error)?.name === 'DataFileError'
    this.log(`multi: ${(e as Error)?.stack ?? String(e)}`)
    answer(res, {
      status: 500,
      body: damaged
        ? errorBody(500, 'SANDBOX_DATA_DAMAGED', (e as Error).message)
        : errorBody(500, 'INTERNAL_ERROR', 'The local sandbox failed; see its log'),
    })
  }

  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper)
    await new Promise<void>((resolve) => {
      if (!this.server) return resolve()
      this.server.close(() => resolve())
      for (const s of this.sockets) s.destroy()
    })
    await this.tenants?.closeAll()
    this.dirLock.release()
  }
}

/** The token id of HTTP Basic credentials, without checking them (the sandbox it picks does). */
function basicTokenId(authorization: string | undefined): string | undefined {
  const m = /^Basic\s+(.+)$/i.exec(authorization ?? '')
  if (!m) return undefined
  const given = Buffer.from(m[1], 'base64').toString('utf8')
  const colon = given.indexOf(':')
  return colon > 0 ? given.slice(0, colon) : undefined
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

/** The front door's `send()`; a sandbox that already began its answer cannot be given another, so the connection goes. */
function answer(res: ServerResponse, r: EmuResponse): void {
  if (res.headersSent) return void res.destroy()
  send(res, r)
}
