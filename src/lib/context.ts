import {ApiClient, type ApiRequest, type DescribedRequest, type SentWrite} from './api/client.js'
import type {NetworkOptions} from './api/dispatcher.js'
import {resolveProfile, type ResolvedProfile} from './config.js'
import {hintFor} from './error-catalog.js'
import {SvcError, cancelled, confirmationRequired, networkError, usageError, type ErrorDocument} from './errors.js'
import {describeSecretSource, secretSource} from './login.js'
import {ExitCode} from './exit-codes.js'
import type {Output} from './output/output.js'
import {LOCAL_BASE_URL, sandboxDataDir} from './paths.js'
import {runningPid} from './sandbox-process.js'
import {canPrompt, promptConfirm} from './prompts.js'
import {io} from './io.js'
import {trustedCa} from './trust.js'

export interface ContextOptions {
  out: Output
  commandId: string
  version: string
  flags: {profile?: string; 'base-url'?: string; debug?: boolean; 'idempotency-key'?: string; 'ca-file'?: string}
  /** Overall deadline for the command's operation (requests, waits, signed retries). */
  timeoutMs: number
  env?: NodeJS.ProcessEnv
  now?: () => number
  sleep?: (ms: number) => Promise<void>
}

/**
 * A profile without credentials. For the local profile with no sandbox running, that is a sandbox
 * never started (it writes the credentials at its first start): exit 9 "start it", like one that stopped.
 */
export function missingCredentials(p: ResolvedProfile, env: NodeJS.ProcessEnv): SvcError {
  // Only for the built-in sandbox's own address: a local profile pointed elsewhere just lacks its secret.
  if (p.environment === 'local' && p.baseUrl === LOCAL_BASE_URL && !runningPid(sandboxDataDir(env))) {
    return networkError(
      `The local sandbox is not running at ${new URL(p.baseUrl).origin} (never started: no credentials in ${sandboxDataDir(env)})`,
      'Start it with `svc sandbox serve --detach` (it writes the local credentials), or set SVC_TOKEN_ID and SVC_CLIENT_SECRET.',
    )
  }
  return new SvcError({
    code: 'UNAUTHORIZED',
    exitCode: ExitCode.AUTH,
    message: `Profile "${p.name}" has no API credentials`,
    hint:
      p.environment === 'local'
        ? 'Set SVC_TOKEN_ID and SVC_CLIENT_SECRET, or `svc login --profile ' + p.name + '`.'
        : `Run \`svc login --profile ${p.name}\`, or set SVC_TOKEN_ID and SVC_CLIENT_SECRET.`,
  })
}

/**
 * What a command needs, built lazily once: the resolved profile, the API client, the clock and
 * the transport. Commands read from here instead of process.env or globals.
 */
export class Context {
  readonly out: Output
  readonly env: NodeJS.ProcessEnv
  readonly now: () => number
  readonly sleep: (ms: number) => Promise<void>
  readonly deadline: number
  readonly debug: boolean
  private _profile?: ResolvedProfile
  private _client?: ApiClient

  constructor(readonly opts: ContextOptions) {
    this.out = opts.out
    this.env = opts.env ?? io().env
    // SVC_TEST_CLOCK_OFFSET_MS skews this process's clock, so tests can play a machine whose clock is wrong.
    const offset = Number(this.env.SVC_TEST_CLOCK_OFFSET_MS) || 0
    const {now, sleep} = io()
    this.now = opts.now ?? (offset ? () => now() + offset : now)
    this.sleep = opts.sleep ?? sleep
    this.deadline = this.now() + opts.timeoutMs
    this.debug = Boolean(opts.flags.debug || this.env.SVC_DEBUG)
  }

  get profile(): ResolvedProfile {
    this._profile ??= resolveProfile({profile: this.opts.flags.profile, baseUrl: this.opts.flags['base-url']}, this.env)
    return this._profile
  }

  /**
   * A 401 on the API credentials says where the secret came from (an old SVC_CLIENT_SECRET exported
   * in the shell beats the profile's stored one, and is the usual surprise). A 401 about a wallet
   * login's proof keeps its own hint.
   */
  explainUnauthorized(doc: ErrorDocument): ErrorDocument {
    if (doc.status !== 401 || doc.code !== 'UNAUTHORIZED' || doc.hint !== hintFor('UNAUTHORIZED')) return doc
    let p: ResolvedProfile
    try {
      p = this.profile
    } catch {
      return doc
    }
    const from = secretSource(p, this.env)
    const fix =
      from === 'SVC_CLIENT_SECRET'
        ? 'unset or correct SVC_CLIENT_SECRET'
        : from === 'local sandbox'
          ? 'restart the local sandbox (`svc sandbox stop`, then `svc sandbox serve --detach`)'
          : from === 'agent token'
            ? 'log the agent in again (`svc agents login <code>`)'
            : `run \`svc login --profile ${p.name}\``
    const what =
      from === 'agent token'
        ? 'Check the agent access token'
        : `Check the token id (${p.tokenId ?? 'none'}) and client secret`
    const hint = `${what}: the secret came from ${describeSecretSource(p, this.env)}; ${fix}.`
    return {
      ...doc,
      details: {...doc.details, profile: p.name, secretFrom: from, ...(p.tokenId ? {tokenId: p.tokenId} : {})},
      hint,
    }
  }

  /** Milliseconds left before --timeout. */
  remainingMs(): number {
    return Math.max(0, this.deadline - this.now())
  }

  /** ` --profile X` when the command was given a profile, so a printed next step runs against the same one. */
  profileArg(): string {
    return this.opts.flags.profile ? ` --profile ${this.opts.flags.profile}` : ''
  }

  /**
   * The transport, with whatever credentials the profile has. A dry run describes its request
   * with it and never needs credentials (it sends nothing): the same for every command.
   */
  get transport(): ApiClient {
    if (this._client) return this._client
    const p = this.profile
    this._client = new ApiClient({
      baseUrl: p.baseUrl,
      tokenId: p.agentId ? undefined : p.tokenId,
      secret: p.agentId ? undefined : p.secret,
      bearer: p.agentId ? p.agentToken : undefined,
      timeoutMs: Math.min(30_000, Math.max(1000, this.remainingMs())),
      userAgent: `svc-cli/${this.opts.version} node/${process.version}`,
      dispatcher: io().dispatcher,
      // SVC_PLAN_IDEMPOTENCY_KEY: the key `svc mcp` pins for a plan, the same for its dry run and its confirmed run.
      idempotencyKey: this.opts.flags['idempotency-key'] ?? this.env.SVC_PLAN_IDEMPOTENCY_KEY,
      // `svc mcp` confirming a plan: the digests of the only writes this run may send (api/planned.ts).
      planned: this.env.SVC_PLANNED_REQUESTS?.split(',').filter(Boolean),
      network: this.network(p),
      trace: this.debug ? (line) => this.out.info(this.out.dim(line)) : undefined,
      // A retry is said out loud where someone watches (a terminal), and in scripts under --debug.
      notice: io().stderr.isTTY || this.debug ? (line) => this.out.info(this.out.yellow(line)) : undefined,
      warn: (line) => this.out.warn(line),
      sleep: this.sleep,
      deadline: this.deadline,
      now: this.now,
      onConnectionRefused: () =>
        p.environment === 'local'
          ? networkError(
              `The local sandbox is not running at ${new URL(p.baseUrl).origin}`,
              'Start it with `svc sandbox serve --detach` (or `svc sandbox serve` in another terminal).',
            )
          : undefined,
    })
    return this._client
  }

  /** Proxies from the environment, and the CA this profile trusts (trust.ts): for every client made for it. */
  network(p: ResolvedProfile = this.profile): NetworkOptions {
    return {env: this.env, ca: trustedCa(this.opts.flags['ca-file'], p, this.env)}
  }

  /** The writes this command sent and how each ended (none when it built no client): what `svc history` records. */
  get sentWrites(): SentWrite[] {
    return this._client?.writes ?? []
  }

  /**
   * "Nothing was sent", said by a refusal or a dry run, is only true when no request went out; after
   * a look-up (`customers update` GETs the customer's type first) it becomes "only look-ups were
   * sent; nothing was changed", and after a write, "nothing more was sent".
   */
  honestAboutSent(text: string): string {
    const sent = this._client?.requests ?? []
    if (!sent.length || !/nothing was sent/i.test(text)) return text
    const said = sent.every((r) => r.method === 'GET')
      ? `only look-ups were sent (${sent.length} GET${sent.length > 1 ? 's' : ''}); nothing was changed`
      : 'nothing more was sent'
    return text.replace(/nothing was sent/g, said).replace(/Nothing was sent/g, said[0].toUpperCase() + said.slice(1))
  }

  /** Set by `svc history finish <n>`: its records say which record they finish. */
  historyFinishes?: number

  /** The transport, for sending: a profile without credentials is refused here, before any request. */
  get client(): ApiClient {
    const p = this.profile
    if (p.agentId && !p.agentToken) {
      throw new SvcError({
        code: 'UNAUTHORIZED',
        exitCode: ExitCode.AUTH,
        message: `Agent profile "${p.name}" has no access token`,
        hint: 'Ask the platform for a device code (`svc agents device-code issue <agentId>`), then `svc agents login <code>`.',
      })
    }
    if (!p.agentId && (!p.tokenId || !p.secret)) throw missingCredentials(p, this.env)
    return this.transport
  }

  /** What --dry-run prints: the request as the transport would send it (with this command's key), redacted. */
  describe(req: ApiRequest): {dryRun: true; request: DescribedRequest} {
    return {dryRun: true, request: this.transport.describe(req)}
  }

  /** Shown on stderr before anything moves money or deletes, so nobody mistakes production for a sandbox. */
  banner(action: string): void {
    const p = this.profile
    const env =
      p.environment === 'production' ? this.out.red(this.out.bold('PRODUCTION')) : this.out.cyan(p.environment)
    this.out.info(`${env} · profile ${p.name} · ${action}`)
  }

  /**
   * Confirmation before moving money, deleting or revoking. Production always asks (a TTY prompt, or
   * --yes off a TTY); elsewhere `always` asks on a TTY unless --yes. What cannot be undone (a delete,
   * a wipe) is `irreversible`: off a TTY it needs --yes in every environment, as gh's `repo delete`
   * does, so a script cannot lose data by a missing flag. A refusal is "confirmation refused" (exit 3).
   */
  async confirm(question: string, opts: {yes?: boolean; always?: boolean; irreversible?: boolean} = {}): Promise<void> {
    if (opts.yes) return
    const production = this.profile.environment === 'production'
    if (!production && !opts.always && !opts.irreversible) return
    if (!canPrompt(this.env)) {
      const what = question.replace(/\?.*$/, '').replace(/^\w/, (c) => c.toLowerCase())
      if (production || opts.irreversible) throw confirmationRequired(what, production)
      return
    }
    if (!(await promptConfirm(question, false))) throw cancelled('Not confirmed; nothing was sent.')
  }

  refuseInProduction(what: string): void {
    if (this.profile.environment === 'production') {
      throw usageError(
        `${what} is a sandbox simulator and is refused against production`,
        'Switch to a sandbox or local profile (`svc profiles use`).',
      )
    }
  }

  // No close(): the process ends with the command. undici does not keep a process alive for idle
  // keep-alive sockets, and the kernel closes them at exit; closing them one by one only costs time.
}
