import type {IncomingHttpHeaders} from 'node:http'
import type {Clock} from './clock.js'
import type {Principal} from './principal.js'
import type {Scheduler} from './scheduler.js'
import {effectiveSettings, type PlatformConfig, type SandboxSettings} from './settings.js'
import type {StoredCustomer} from './store/customers.js'
import type {Db} from './store/db.js'
import type {StoredQuote} from './store/quotes.js'
import type {StoredTransaction} from './store/transactions.js'
import type {Webhooks} from './webhooks.js'

/**
 * What route and domain code may use of the sandbox, for one request (or one job): the
 * repositories, the clock, the scheduler, the webhook outbox, the settings, the log, the reactions
 * and who is calling. Routes and domain take this, never the `Emulator` that builds it; the
 * instance is wired in one place (emulator.ts), so this file names only types from below it.
 */
export interface SandboxContext {
  /** Who is calling: resolved by the server before the handler runs; `system` for jobs and reactions. */
  readonly principal: Principal
  /** The repositories: one SQLite database whose tables the store/ modules read and write. */
  readonly db: Db
  readonly scheduler: Scheduler
  /** The webhook outbox: an event emitted in a unit is sent once that unit commits. */
  readonly webhooks: Webhooks
  readonly reactions: Reactions
  /** The API's base URL, e.g. http://127.0.0.1:4010/2025-10-13. */
  readonly url: string
  readonly dataDir: string
  readonly webhookPublicKeyPem: string
  /** The sandbox's own clock (clock.ts): `now` reads it; the /sandbox/clock routes move it. */
  readonly clock: Clock
  readonly now: () => number
  readonly iso: (ms?: number) => string
  readonly config: () => PlatformConfig
  readonly settings: () => SandboxSettings
  readonly saveConfig: (next: PlatformConfig) => PlatformConfig
  readonly log: (line: string) => void
  /** The same sandbox acting as itself (what jobs and reactions run as). */
  readonly system: () => SandboxContext
}

/**
 * What other code does when something happens, wired per instance by the composition root
 * (emulator.ts). Reactions run as `system`; checks and gates run as the caller.
 */
export interface Reactions {
  /** After a customer is stored, in the same unit (the KYC decision job, the embedded wallet ...). */
  readonly customerCreated: ReadonlyArray<(ctx: SandboxContext, customer: StoredCustomer) => void>
  /** After a transaction an agent made is stored with a new status (the agent action follows it). */
  readonly agentTransactionChanged: ReadonlyArray<(ctx: SandboxContext, t: StoredTransaction) => void>
  /** Before a new quote is stored; a check refuses by throwing. */
  readonly quoteChecks: ReadonlyArray<(ctx: SandboxContext, customerId: string) => void>
  /** Before a quote's funds move; a check refuses by throwing. */
  readonly executeChecks: ReadonlyArray<(c: {ctx: SandboxContext; quote: StoredQuote; req?: EmuRequest}) => void>
  /** Before a quote's funds move: a gate returns the quote held back, or undefined to go on. */
  readonly executeGates: ReadonlyArray<
    (c: {ctx: SandboxContext; quote: StoredQuote; agentId?: string; agentAuto?: boolean}) => StoredQuote | undefined
  >
}

/** The services an instance has once, whoever calls; a context adds the principal. */
export type SandboxServices = Omit<
  SandboxContext,
  'principal' | 'iso' | 'config' | 'settings' | 'saveConfig' | 'system'
>

export interface EmuRequest {
  method: string
  path: string
  params: Record<string, string>
  query: URLSearchParams
  headers: IncomingHttpHeaders
  /** Parsed JSON body (undefined when empty or not JSON). */
  body: unknown
  rawBody: Buffer
  /** This request's context: the sandbox's services and the principal the server resolved. */
  ctx: SandboxContext
}

export interface EmuResponse {
  status: number
  body?: unknown
  headers?: Record<string, string>
  /** Raw text body (HTML pages, PEM); sent as-is with the given content type. */
  text?: string
}

const SYSTEM: Principal = {kind: 'system'}

/** Saves the platform config; when the webhook endpoint changes, pending events follow it (Webhooks.retarget). */
export function savePlatformConfig(db: Db, webhooks: Webhooks, next: PlatformConfig, at: string): PlatformConfig {
  const before = db.get<PlatformConfig>('config', 'platform')?.webhookEndpoint ?? null
  const saved = db.put('config', 'platform', {...next, updatedAt: at})
  if ((next.webhookEndpoint ?? null) !== before) webhooks.retarget(next.webhookEndpoint ?? null)
  return saved
}

/** A context over `services` for `principal` (one per request; cheap). */
export function contextFor(services: SandboxServices, principal: Principal): SandboxContext {
  const iso = (ms = services.now()) => new Date(ms).toISOString()
  const config = () => services.db.get<PlatformConfig>('config', 'platform')!
  let system: SandboxContext | undefined
  const ctx: SandboxContext = {
    principal,
    db: services.db,
    scheduler: services.scheduler,
    webhooks: services.webhooks,
    reactions: services.reactions,
    get url() {
      return services.url
    },
    dataDir: services.dataDir,
    webhookPublicKeyPem: services.webhookPublicKeyPem,
    clock: services.clock,
    now: () => services.now(),
    iso,
    config,
    settings: () => effectiveSettings(config().sandbox),
    saveConfig: (next) => savePlatformConfig(services.db, services.webhooks, next, iso()),
    log: (line) => services.log(line),
    system: () => (principal.kind === 'system' ? ctx : (system ??= contextFor(services, SYSTEM))),
  }
  return ctx
}
