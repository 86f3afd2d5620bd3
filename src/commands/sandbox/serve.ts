import {Flags} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'
import {sandboxDataDir} from '../../lib/paths.js'
import {currentEnv} from '../../lib/io.js'
import {clearRunning, DETACHED_ENV, recordRunning, startDetached, type ReadyLine} from '../../lib/sandbox-process.js'
import {
  checkServeFlags,
  detachedArgs,
  explainStartError,
  newDirSettings,
  refuseIfServed,
  renderDetached,
  renderReady,
  untilStopped,
} from '../../lib/sandbox-serve.js'
import {retentionFlags} from '../../lib/serve-retention.js'

export default class SandboxServe extends BaseCommand<typeof SandboxServe> {
  static override handlesInterrupt = true
  static override summary = 'Run the local sandbox: a stateful implementation of the Service sandbox on 127.0.0.1'
  static override description =
    'Listens on 127.0.0.1 under /2025-10-13 with HTTP Basic credentials it prints at start. State lives in one SQLite database in --data-dir (every request atomic and durable before it is answered) and survives restarts, kill -9 included. ' +
    'With --json it prints exactly one line when ready: {"url","tokenId","clientSecret","webhookPublicKey"} (plus "pid" with --detach, "caFile" with --tls). ' +
    'With --tls it serves HTTPS with a certificate from its own CA, made on first start in --data-dir/tls (0600); the local profile trusts that CA by itself, anything else is given it with --ca-file, SVC_CA_FILE or NODE_EXTRA_CA_CERTS. ' +
    'In the foreground it keeps serving and stdout stays open, so read the line from a file, not `$(...)`; with --detach the command prints the line and ends. ' +
    'The running sandbox records its URL in --data-dir: the `local` profile follows it, whatever --port picked. ' +
    'Retention, on the sandbox clock (docs/sandbox.md "Retention"): Idempotency-Key answers are kept --idempotency-retention (24h), delivered, dead and never-addressed webhook events with their attempts --event-retention (30d) after their last attempt, then pruned in small batches; pending events and live objects (customers, accounts, transactions ...) are never pruned. emulator.log is rotated past --log-max-size (10MB), keeping --log-keep (2) old files. These apply to this run.'
  static override examples = [
    '<%= config.bin %> sandbox serve',
    '<%= config.bin %> sandbox serve --detach --port 0',
    '<%= config.bin %> sandbox serve --detach --tls',
    'eval "$(<%= config.bin %> sandbox serve --detach --port 0 --json | jq -r \'"export SVC_BASE_URL=\\(.url) SVC_TOKEN_ID=\\(.tokenId) SVC_CLIENT_SECRET=\\(.clientSecret)"\')"',
  ]
  static override flags = {
    port: Flags.integer({description: 'port on 127.0.0.1 (0 picks a free one)', default: 4010, min: 0, max: 65535}),
    'data-dir': Flags.string({description: 'where the database lives (default: the user data dir)'}),
    detach: Flags.boolean({description: 'run in the background with a pid file; stop with `svc sandbox stop`'}),
    tls: Flags.boolean({
      description:
        "serve HTTPS with a certificate from the sandbox's own CA (made on first start; the ready line names it as caFile)",
    }),
    'decision-delay': Flags.integer({description: 'ms before KYC/KYB decisions land (new data dirs only)'}),
    'webhook-retry-base': Flags.integer({
      description: 'ms before the first webhook retry, doubling each time (new data dirs only)',
      min: 1,
    }),
    faults: Flags.string({
      description:
        'inject faults: before any state change rate5xx=P (503), rate429=P (with Retry-After), reset=P, latency=MS, retryAfter=S; after the commit lostReply=P (no answer), slowReply=DURATION (late answer; slowReplyRate=P)',
    }),
    multi: Flags.boolean({
      description:
        'serve many isolated sandboxes from this one process (a team server): the data dir is the default sandbox, others are made with `svc sandbox create`; the ready line adds "adminSecret"',
    }),
    'idle-close': Flags.string({
      description: 'with --multi: close a sandbox that has served nothing this long (it reopens on its next request)',
      dependsOn: ['multi'],
    }),
    ...retentionFlags,
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
    const checked = checkServeFlags(f) // this run's faults, --idle-close
    refuseIfServed(dataDir)
    if (f.detach) {
      renderDetached(this.out, await startDetached(detachedArgs(f, dataDir), dataDir), this.jsonEnabled(), dataDir)
      return undefined
    }
    // Started by --detach, stderr is sandbox.out, which nothing rotates: log lines go to emulator.log alone.
    const log = currentEnv()[DETACHED_ENV]
      ? () => {}
      : (line: string) => process.stderr.write(this.out.dim(line) + '\n')
    const {serveSandbox} = await import('../../emulator/serve-sandbox.js')
    const options = {dataDir, port: f.port, log, settings: newDirSettings(f), multi: f.multi, tls: f.tls, ...checked}
    const served = await serveSandbox(options).catch((e: unknown) => {
      throw explainStartError(e, dataDir, f.port)
    })
    recordRunning(dataDir, served.ready)
    renderReady(this.out, served.ready, dataDir, this.jsonEnabled())
    await untilStopped()
    await served.close()
    clearRunning(dataDir)
    return undefined
  }
}
