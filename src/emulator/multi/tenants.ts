import {existsSync, readdirSync, renameSync, rmSync} from 'node:fs'
import {join} from 'node:path'
import {randomBytes} from 'node:crypto'
import {ensurePrivateDir, writePrivateFileAtomic} from '../../lib/fs-safe.js'
import {API_VERSION} from '../../lib/paths.js'
import {SANDBOX_NAME} from '../../lib/schemas/sandboxes.js'
import {machineTime} from '../clock.js'
import {Emulator, type Credentials, type EmulatorOptions} from '../emulator.js'
import {HttpError, conflict} from '../http-error.js'
import type {SandboxSettings} from '../settings.js'
import {DB_FILE} from '../store/db.js'
import {freshDatabase} from '../store/files.js'
import {snapshotReport, type SnapshotReport} from '../snapshot-report.js'
import {branchFrom, checkName, readJson, sizeOf} from './tenant-files.js'

/** The sandbox an existing data dir becomes under `serve --multi`: the root dir itself, so nothing moves. */
export const DEFAULT_SANDBOX = 'default'
const META = 'sandbox-meta.json'

export interface TenantInfo {
  name: string
  url: string
  tokenId: string
  sizeBytes: number
  createdAt?: string
  /** The last request it served; undefined when it has served none. */
  lastUsedAt?: string
  /** Whether its database, scheduler and webhook deliverer are open now (idle ones are closed). */
  open: boolean
}

interface Tenant {
  name: string
  dir: string
  credentials?: Credentials
  createdAt?: string
  lastUsedAt?: number
  emu?: Emulator
  closing?: Promise<void>
  /** A reset in progress: its files are being replaced, so nothing may open it meanwhile. */
  resetting?: Promise<void>
  inflight: number
}

export interface TenantsOptions {
  root: string
  /** The server's origin once it listens, e.g. http://127.0.0.1:4010. */
  origin: () => string
  log: (line: string) => void
  settings?: Partial<SandboxSettings>
  recordRequests?: boolean
  now?: () => number
  retention?: EmulatorOptions['retention']
  logLimit?: EmulatorOptions['logLimit']
}

/**
 * The sandboxes of one multi-sandbox server: each a data dir of its own (the default one is the
 * root, the others <root>/sandboxes/<name>) served by its own `Emulator`, built by the same
 * composition root as a single sandbox, opened on its first request and closed when idle.
 */
export class Tenants {
  private readonly byName = new Map<string, Tenant>()
  private readonly byToken = new Map<string, Tenant>()
  private readonly now: () => number

  constructor(private readonly opts: TenantsOptions) {
    // The server's time (last use), not any sandbox's clock: a frozen sandbox still idles in real time.
    this.now = opts.now ?? machineTime
    ensurePrivateDir(join(opts.root, 'sandboxes'))
    this.add({name: DEFAULT_SANDBOX, dir: opts.root, inflight: 0})
    for (const entry of readdirSync(join(opts.root, 'sandboxes'), {withFileTypes: true})) {
      if (!entry.isDirectory() || !SANDBOX_NAME.test(entry.name) || entry.name === DEFAULT_SANDBOX) {
        // a create or upload that died half-way (a kill -9) leaves its staging dir or file: nothing refers to it
        if (/^\.(new|upload)-/.test(entry.name))
          rmSync(join(opts.root, 'sandboxes', entry.name), {recursive: true, force: true})
        continue
      }
      this.add({name: entry.name, dir: join(opts.root, 'sandboxes', entry.name), inflight: 0})
    }
  }

  private add(t: Tenant): void {
    const creds = readJson<Credentials>(join(t.dir, 'credentials.json'))
    const meta = readJson<{createdAt?: string; lastUsedAt?: string}>(join(t.dir, META))
    t.credentials = creds
    t.createdAt = meta?.createdAt
    t.lastUsedAt = meta?.lastUsedAt ? Date.parse(meta.lastUsedAt) : undefined
    this.byName.set(t.name, t)
    if (creds) this.byToken.set(creds.tokenId, t)
  }

  get(name: string): Tenant | undefined {
    return this.byName.get(name)
  }

  /** The sandbox whose own credentials carry this token id (the default one takes every other caller). */
  ofTokenId(tokenId: string | undefined): Tenant | undefined {
    return tokenId ? this.byToken.get(tokenId) : undefined
  }

  isSandboxToken(tokenId: string): boolean {
    return this.byToken.has(tokenId)
  }

  urlOf(name: string): string {
    return name === DEFAULT_SANDBOX
      ? `${this.opts.origin()}/${API_VERSION}`
      : `${this.opts.origin()}/sandboxes/${name}/${API_VERSION}`
  }

  /** Runs `fn` with the sandbox open, counted as in use so the idle sweep leaves it alone. */
  async use<T>(t: Tenant, fn: (emu: Emulator) => Promise<T>): Promise<T> {
    t.inflight++
    try {
      const emu = await this.open(t)
      return await fn(emu)
    } finally {
      t.inflight--
      t.lastUsedAt = this.now()
    }
  }

  /** The sandbox's instance, opened now if it was closed (waiting out a close in progress). */
  async open(t: Tenant): Promise<Emulator> {
    while (t.closing || t.resetting) await (t.closing ?? t.resetting)
    if (this.byName.get(t.name) !== t) throw new HttpError(404, 'NOT_FOUND', `No sandbox named "${t.name}"`)
    if (t.emu) return t.emu
    const opts: EmulatorOptions & {baseUrl: string} = {
      dataDir: t.dir,
      baseUrl: this.urlOf(t.name),
      dirLocked: t.name === DEFAULT_SANDBOX, // the server holds the root's lock for its whole life
      log: (line) => this.opts.log(`[${t.name}] ${line}`),
      settings: this.opts.settings,
      recordRequests: this.opts.recordRequests,
      now: this.opts.now,
      retention: this.opts.retention,
      logLimit: this.opts.logLimit,
    }
    t.emu = Emulator.open(opts)
    if (!t.credentials) {
      t.credentials = t.emu.credentials
      this.byToken.set(t.credentials.tokenId, t)
    }
    return t.emu
  }

  /** Closes the instance (database, scheduler, deliverer); its next request opens it again. */
  async close(t: Tenant): Promise<void> {
    while (t.closing) await t.closing
    const emu = t.emu
    if (!emu) return
    t.emu = undefined
    t.closing = emu.close().finally(() => (t.closing = undefined))
    await t.closing
    this.writeMeta(t)
  }

  /** Closes every sandbox idle for longer than `idleMs` (none with a request in flight). */
  async sweep(idleMs: number): Promise<string[]> {
    const idle = [...this.byName.values()].filter(
      (t) => t.emu && t.inflight === 0 && this.now() - (t.lastUsedAt ?? 0) >= idleMs,
    )
    await Promise.all(idle.map((t) => this.close(t)))
    return idle.map((t) => t.name)
  }

  /**
   * A new sandbox: empty, or branched from a database file (another sandbox's, or an uploaded
   * snapshot) by importing its documents into a database the current code makes (the source's
   * tokens left behind). It is built in a staging dir and renamed into place, then opened (which
   * makes its own credentials). The report says what it inherited and what it left behind.
   */
  async create(
    name: string,
    from?: {sandbox?: string; file?: string},
  ): Promise<{emu: Emulator; report?: SnapshotReport}> {
    checkName(name)
    if (this.byName.has(name) || existsSync(join(this.opts.root, 'sandboxes', name)))
      throw conflict('SANDBOX_EXISTS', `A sandbox named "${name}" already exists`)
    let source = from?.file
    if (from?.sandbox !== undefined) {
      const src = this.byName.get(from.sandbox)
      if (!src) throw new HttpError(404, 'NOT_FOUND', `No sandbox named "${from.sandbox}" to branch from`)
      source = join(src.dir, DB_FILE)
    }
    const staging = join(this.opts.root, 'sandboxes', `.new-${name}-${randomBytes(4).toString('hex')}`)
    const dir = join(this.opts.root, 'sandboxes', name)
    const t: Tenant = {name, dir, inflight: 0, createdAt: new Date(this.now()).toISOString()}
    this.byName.set(name, t) // reserved: a second create of the name is refused meanwhile
    try {
      ensurePrivateDir(staging)
      const imported = source ? await branchFrom(source, staging, Boolean(from?.file)) : undefined
      renameSync(staging, dir)
      this.writeMeta(t)
      const emu = await this.open(t)
      return {emu, ...(imported ? {report: snapshotReport(imported, this.opts.settings)} : {})}
    } catch (e) {
      this.byName.delete(name)
      if (t.emu) await t.emu.close().catch(() => {})
      rmSync(staging, {recursive: true, force: true})
      rmSync(dir, {recursive: true, force: true})
      throw e
    }
  }

  async delete(name: string): Promise<void> {
    const t = this.mustGet(name)
    if (name === DEFAULT_SANDBOX)
      throw conflict('SANDBOX_DEFAULT', 'The default sandbox is the data dir itself and cannot be deleted; reset it')
    this.byName.delete(name) // new requests are refused from here on
    if (t.credentials) this.byToken.delete(t.credentials.tokenId)
    await this.close(t)
    rmSync(t.dir, {recursive: true, force: true})
  }

  /** Wipes one sandbox's state as `svc sandbox reset` does; its credentials and webhook key are kept. */
  async reset(name: string): Promise<void> {
    const t = this.mustGet(name)
    while (t.resetting) await t.resetting
    let done!: () => void
    t.resetting = new Promise<void>((resolve) => (done = resolve))
    try {
      await this.close(t)
      this.wipe(t)
    } finally {
      t.resetting = undefined
      done()
    }
  }

  private wipe(t: Tenant): void {
    for (const f of [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`, 'journal.ndjson', 'journal.ndjson.compact'])
      rmSync(join(t.dir, f), {force: true})
    freshDatabase(t.dir)
  }

  list(): TenantInfo[] {
    return [...this.byName.values()]
      .filter((t) => t.credentials)
      .map((t) => ({
        name: t.name,
        url: this.urlOf(t.name),
        tokenId: t.credentials!.tokenId,
        sizeBytes: sizeOf(t.dir),
        ...(t.createdAt ? {createdAt: t.createdAt} : {}),
        ...(t.lastUsedAt ? {lastUsedAt: new Date(t.lastUsedAt).toISOString()} : {}),
        open: Boolean(t.emu),
      }))
      .sort((a, b) => (a.name === DEFAULT_SANDBOX ? -1 : b.name === DEFAULT_SANDBOX ? 1 : a.name.localeCompare(b.name)))
  }

  openCount(): number {
    return [...this.byName.values()].filter((t) => t.emu).length
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.byName.values()].map((t) => this.close(t)))
  }

  private mustGet(name: string): Tenant {
    checkName(name)
    const t = this.byName.get(name)
    if (!t) throw new HttpError(404, 'NOT_FOUND', `No sandbox named "${name}"`)
    return t
  }

  private writeMeta(t: Tenant): void {
    const meta = {
      ...(t.createdAt ? {createdAt: t.createdAt} : {}),
      ...(t.lastUsedAt ? {lastUsedAt: new Date(t.lastUsedAt).toISOString()} : {}),
    }
    try {
      writePrivateFileAtomic(join(t.dir, META), JSON.stringify(meta))
    } catch {
      // the dates are a convenience of the list; never fail a close over them
    }
  }
}
