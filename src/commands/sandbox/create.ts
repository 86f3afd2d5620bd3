import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag} from '../../lib/flags.js'
import {renderKeyValue} from '../../lib/output/render.js'
import {renderTakenFrom} from '../../lib/sandbox-store.js'
import {
  adminClientFrom,
  adminFlags,
  checkNoProfile,
  checkSandboxName,
  createTeamSandbox,
  createTeamSandboxRequest,
  snapshotFile,
} from '../../lib/sandbox-admin.js'

export default class SandboxCreate extends BaseCommand<typeof SandboxCreate> {
  static override summary =
    'Create a sandbox of its own on a team sandbox server (`serve --multi`), empty or branched, and a profile for it'
  static override description =
    'Branching checks the source (a snapshot file, or another sandbox even while it serves) against the declared schema (a view, trigger, table or index of its own is refused, 422 INVALID_SNAPSHOT naming it) ' +
    "and imports its documents into a database this svc makes. The source's API tokens and agent tokens are left behind; the settings it brings are listed. " +
    'The new sandbox has its own credentials and webhook key: they are written as profile NAME (the secret in a 0600 file, never on argv or in output unless --show-secret). ' +
    "The admin secret comes from --admin-secret-stdin, SVC_SANDBOX_ADMIN_SECRET, or the local server's data dir."
  static override examples = [
    '<%= config.bin %> sandbox create "ci-$RUN_ID" --from-snapshot fixtures/onboarded.db',
    '<%= config.bin %> sandbox create try-refunds --from main-demo',
  ]
  static override args = {
    name: Args.string({
      description: 'letters, digits, - and _ (up to 63): the sandbox and its profile',
      required: true,
    }),
  }
  static override flags = {
    'from-snapshot': Flags.string({
      description: 'branch from this snapshot file (`svc sandbox snapshot save` or `backup` writes one)',
      exclusive: ['from'],
    }),
    from: Flags.string({description: 'branch from this sandbox of the same server', exclusive: ['from-snapshot']}),
    'show-secret': Flags.boolean({description: "print the new sandbox's client secret (also in --json)"}),
    ...adminFlags,
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    const name = checkSandboxName(this.args.name)
    if (f.from !== undefined) checkSandboxName(f.from, '--from')
    const snapshot = f['from-snapshot'] === undefined ? undefined : snapshotFile(f['from-snapshot'])
    if (f['dry-run'])
      return this.dryRun(this.describe(name, f.from, snapshot && {path: f['from-snapshot']!, ...snapshot}))
    const client = adminClientFrom(f, this.ctx, this.config.version)
    try {
      const {secret, ...created} = await createTeamSandbox(client, {name, from: f.from, snapshot}, this.ctx.env)
      this.out.success(`Sandbox ${name} created; use it with --profile ${name}`)
      renderKeyValue(this.out, [
        ['url', created.url],
        ['tokenId', created.tokenId],
        ...(f['show-secret'] ? ([['clientSecret', secret.reveal()]] as Array<[string, string]>) : []),
      ])
      if (created.inheritedSettings) renderTakenFrom(this.out, created)
      return {...created, ...(f['show-secret'] ? {clientSecret: secret.reveal()} : {})}
    } finally {
      await client.close()
    }
  }

  /** The create request; a snapshot's bytes are its body, shown by size and SHA-256, beside the file's name. */
  private describe(name: string, from?: string, snapshot?: {path: string; bytes: Uint8Array; size: number}) {
    checkNoProfile(name, this.ctx.env)
    const client = adminClientFrom(this.flags, this.ctx, this.config.version, {dryRun: true})
    const request = client.describe({...createTeamSandboxRequest({name, from, snapshot}), rawBody: snapshot?.bytes})
    return {dryRun: true as const, ...(snapshot ? {snapshot: snapshot.path} : {}), request}
  }
}
