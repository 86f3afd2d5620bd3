import {Command, Config, Errors, Flags, type Interfaces} from '@oclif/core'
import {Context} from './context.js'
import {isSvcError, type ErrorDocument} from './errors.js'
import {parseDuration} from './duration.js'
import {Output} from './output/output.js'
import {durationFlag} from './flags.js'
import {interrupts} from './interrupt.js'
import {withCommandHint} from './hints.js'
import {toSvcError} from './command-errors.js'
import {io} from './io.js'

type QueryModule = typeof import('./output/json-query.js')

const TIMEOUT_HELP = 'give up after this long (30s, 10m ...)'

export type CommandFlags<T extends typeof Command> = Interfaces.InferredFlags<
  (typeof BaseCommand)['baseFlags'] & T['flags']
>
export type CommandArgs<T extends typeof Command> = Interfaces.InferredArgs<T['args']>

/**
 * Every svc command extends this: shared flags, one Context built per run, and the only place
 * errors are printed (JSON document on stdout under --json, a readable message on stderr
 * otherwise) and turned into exit codes.
 */
export abstract class BaseCommand<T extends typeof Command> extends Command {
  static override enableJsonFlag = true
  /** Commands that end cleanly on SIGINT themselves (a server that stops) set this. */
  static handlesInterrupt = false
  /** Arguments whose values are secrets (`agents login <code>`): redacted in `svc history` and printed command lines. */
  static secretArgs: string[] = []

  static override baseFlags = {
    profile: Flags.string({
      description: 'profile to use (see `svc profiles list`)',
      helpGroup: 'GLOBAL',
      env: 'SVC_PROFILE',
    }),
    'base-url': Flags.string({description: 'API base URL including the version segment', helpGroup: 'GLOBAL'}),
    timeout: durationFlag(TIMEOUT_HELP, '30s'),
    debug: Flags.boolean({description: 'trace HTTP requests on stderr (secrets redacted)', helpGroup: 'GLOBAL'}),
    'ca-file': Flags.string({
      description: "trust this CA (PEM) besides the system's, for a private or sandbox TLS server (or SVC_CA_FILE)",
      helpGroup: 'GLOBAL',
    }),
    'no-color': Flags.boolean({description: 'disable colour (also NO_COLOR)', helpGroup: 'GLOBAL'}),
    query: Flags.string({
      char: 'q',
      description: 'select from the JSON output with a JMESPath expression (implies --json; a string prints bare)',
      helpGroup: 'GLOBAL',
    }),
  }

  /**
   * oclif's Command.run builds and loads a second Config from the one the runner hands it (same
   * options, same plugins: platform, shell, theme and the command table all over again) before it
   * runs the command. An svc command runs on the runner's Config as it is; called any other way
   * (tests, a plain options object) it goes through oclif's path.
   */
  static override async run<C extends Command>(
    this: new (argv: string[], config: Config) => C,
    argv?: string[],
    opts?: Interfaces.LoadOptions,
  ): Promise<ReturnType<C['run']>> {
    if (!(opts instanceof Config)) return super.run(argv, opts) as Promise<ReturnType<C['run']>>
    const cmd = new this(argv ?? process.argv.slice(2), opts) as unknown as {_run(): Promise<ReturnType<C['run']>>}
    return cmd._run()
  }

  protected flags!: CommandFlags<T>
  protected args!: CommandArgs<T>
  protected ctx!: Context
  private output?: Output
  private offSignal?: () => void
  /** --query's compiled expression and the module that runs it (loaded only when the flag is given). */
  private query?: {compiled: ReturnType<QueryModule['compileQuery']>; lib: QueryModule}

  protected get out(): Output {
    this.output ??= makeOutput(this.jsonEnabled(), this.argv)
    return this.output
  }

  public override async init(): Promise<void> {
    await super.init()
    const {args, flags} = await this.parse({
      flags: this.ctor.flags,
      baseFlags: (this.ctor as typeof BaseCommand).baseFlags,
      enableJsonFlag: this.ctor.enableJsonFlag,
      args: this.ctor.args,
      strict: this.ctor.strict,
    })
    if (!(this.ctor as typeof BaseCommand).handlesInterrupt)
      this.offSignal = io().onSignal('SIGINT', () => this.interrupted())
    this.flags = flags as CommandFlags<T>
    this.args = args as CommandArgs<T>
    const expression = (flags as {query?: string}).query
    if (expression !== undefined) {
      // Compiled before anything is sent: a bad expression is exit 2 with nothing done.
      const lib = await import('./output/json-query.js')
      this.query = {compiled: lib.compileQuery(expression), lib}
      this.out.queried = true
    }
    await this.startPager()
    this.ctx = new Context({
      out: this.out,
      commandId: this.id ?? '',
      version: this.config.version,
      flags: this.flags as Context['opts']['flags'],
      timeoutMs: parseDuration((this.flags as {timeout?: string}).timeout ?? '30s') ?? 30_000,
    })
  }

  protected override async catch(err: Error & {exitCode?: number}): Promise<never> {
    if (err instanceof Errors.ExitError) throw err
    const svc = toSvcError(err)
    const recorded = await this.recordHistory()
    let doc: ErrorDocument = withCommandHint(svc.toDocument(), this.id ?? '', {
      ...this.ctor.flags,
      ...(this.ctor as typeof BaseCommand).baseFlags,
    })
    if (doc.code === 'OUTCOME_UNKNOWN') {
      const {redactArgv, withFinishHint} = await import('./history/command-line.js')
      const unknown = this.ctx?.sentWrites.findIndex((w) => w.outcome === 'unknown') ?? -1
      doc = withFinishHint(doc, {
        commandId: this.id ?? '',
        argv: redactArgv(this.argv, this.secretArgValues()),
        takesKey: 'idempotency-key' in (this.ctor.flags ?? {}),
        record: unknown >= 0 ? recorded?.[unknown] : undefined,
      })
    }
    // `svc login` checks the secret it was just given, not the profile's: its own hint stands.
    if (this.ctx && this.id !== 'login') doc = this.ctx.explainUnauthorized(doc)
    if (this.ctx) {
      const honest = this.ctx.honestAboutSent.bind(this.ctx)
      doc = {...doc, reason: honest(doc.reason), hint: doc.hint && honest(doc.hint)}
    }
    if (this.jsonEnabled()) {
      // The document is the script's answer; the one line on stderr is for whoever watches the pipe (`| jq` hides a failure otherwise).
      this.out.printJson({error: doc})
      this.out.printErrorLine(doc)
    } else this.out.printError(doc)
    if (!isSvcError(err) && !(err as {oclif?: unknown}).oclif && this.ctx?.debug) this.out.info(String(err.stack))
    throw new Errors.ExitError(svc.exitCode)
  }

  /**
   * The success path's record in `svc history` (a failure's is made in catch, before its hint); the
   * SIGINT handler belongs to this run (a test process runs many commands in turn).
   */
  protected override async finally(err: Error | undefined): Promise<unknown> {
    this.offSignal?.()
    await this.pager?.done()
    await this.recordHistory()
    return super.finally(err)
  }

  private recorded?: number[]
  private pager?: import('./pager.js').Pager

  /** Lists page on a terminal, as gh's do (pager.ts): loaded only for a list on a terminal. */
  private async startPager(): Promise<void> {
    if (!/(^|:)list$/.test(this.id ?? '') || this.jsonEnabled() || !io().stdout.isTTY) return
    if ((this.flags as {follow?: boolean}).follow) return
    this.pager = (await import('./pager.js')).pageOutput(this.out, io().env)
  }

  /**
   * Appends one `svc history` record per write this command sent, once. Loaded only when there are
   * writes, so a read costs nothing; a history that cannot be written warns and never fails the command.
   */
  private async recordHistory(): Promise<number[] | undefined> {
    if (this.recorded || !this.ctx) return this.recorded
    const writes = this.ctx.sentWrites
    this.recorded = []
    if (!writes.length) return this.recorded
    try {
      const [{appendHistory}, {commandLine, redactArgv}] = await Promise.all([
        import('./history/store.js'),
        import('./history/command-line.js'),
      ])
      const p = this.ctx.profile
      const base = {
        time: new Date(this.ctx.now()).toISOString(),
        profile: p.name,
        baseUrl: p.baseUrl,
        command: commandLine(this.id ?? '', redactArgv(this.argv, this.secretArgValues())),
        ...(this.ctx.historyFinishes ? {finishes: this.ctx.historyFinishes} : {}),
      }
      this.recorded = appendHistory(
        writes.map((w) => ({...base, ...w})),
        this.ctx.env,
      )
    } catch (e) {
      this.out.warn(`This command was not recorded in \`svc history\`: ${(e as Error).message}`)
    }
    return this.recorded
  }

  private secretArgValues(): string[] {
    const names = (this.ctor as typeof BaseCommand).secretArgs
    const args = (this.args ?? {}) as Record<string, unknown>
    return names.map((n) => args[n]).filter((v): v is string => typeof v === 'string')
  }

  /**
   * Ctrl-C outside a prompt (prompts map their own Ctrl-C): say what goes on at the Service and how
   * to resume it, then exit 130. Exiting here is deliberate: the handler replaces Node's default
   * termination, and whatever svc was waiting on (timers, a poll in flight) has nothing to finish.
   */
  private interrupted(): void {
    const doc = interrupts.error().toDocument()
    if (io().stderr.isTTY) io().stderr.write('\r\x1b[2K')
    if (this.jsonEnabled()) {
      this.out.printJson({error: doc})
      this.out.printErrorLine(doc)
    } else this.out.printError(doc)
    io().exit(130)
  }

  /** --dry-run: the request goes to stdout (JSON in both modes), a note to stderr, nothing is sent. */
  protected dryRun<D>(description: D): D {
    if (!this.jsonEnabled()) this.out.printJson(description)
    this.out.info(this.ctx?.honestAboutSent('Dry run: nothing was sent.') ?? 'Dry run: nothing was sent.')
    return description
  }

  /**
   * `--output json` on list commands is --json by another name, and `--query`/`-q` implies it
   * (checked before parsing, like oclif's own).
   */
  public override jsonEnabled(): boolean {
    if (super.jsonEnabled()) return true
    const end = this.argv.includes('--') ? this.argv.indexOf('--') : this.argv.length
    const argv = this.argv.slice(0, end)
    return (
      argv.includes('--output=json') ||
      argv.some((a, i) => a === '--output' && argv[i + 1] === 'json') ||
      argv.some((a) => a === '--query' || a.startsWith('--query=') || a === '-q' || /^-q./.test(a))
    )
  }

  /** JSON on stdout without colour codes, so pipes get clean data. A command that wrote its own (a streamed list) returns undefined. */
  public override logJson(json: unknown): void {
    if (json === undefined) return
    if (!this.query) return this.out.printJson(json)
    const refused = this.query.lib.printQueried(
      this.out,
      this.query.compiled,
      json,
      Boolean(this.ctx?.sentWrites.length),
    )
    if (refused) throw new Errors.ExitError(refused)
  }
}

/**
 * The base flags with this command's own --timeout default (`kyc wait`: 10m), so --help and the
 * generated reference show it: `static override baseFlags = withTimeout('10m')`. (oclif collects a
 * command's static properties into its manifest by copying them, so the default cannot be read off
 * the subclass by a getter on the base class.)
 */
export function withTimeout(dflt: string): typeof BaseCommand.baseFlags {
  return {...BaseCommand.baseFlags, timeout: durationFlag(TIMEOUT_HELP, dflt)}
}

function makeOutput(json: boolean, argv: string[]): Output {
  const {env, stdout, stderr} = io()
  const noColor = argv.includes('--no-color') || 'NO_COLOR' in env || env.TERM === 'dumb'
  const forced = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0'
  return new Output({json, color: !noColor && (forced || Boolean(stderr.isTTY)), stdout, stderr})
}
