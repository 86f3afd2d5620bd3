import {Args} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'
import {deleteSandbox} from '../../lib/api/sandboxes.js'
import {dryRunFlag, yesFlag} from '../../lib/flags.js'
import {adminClientFrom, adminFlags, checkSandboxName, forgetTeamSandboxProfile} from '../../lib/sandbox-admin.js'

export default class SandboxDelete extends BaseCommand<typeof SandboxDelete> {
  static override summary =
    'Delete a sandbox of a team sandbox server (`serve --multi`), its data and credentials, and the profile `create` wrote'
  static override examples = ['<%= config.bin %> sandbox delete "ci-$RUN_ID" --yes']
  static override args = {name: Args.string({description: 'the sandbox to delete', required: true})}
  static override flags = {yes: yesFlag, ...adminFlags, 'dry-run': dryRunFlag}

  async run() {
    const f = this.flags
    const name = checkSandboxName(this.args.name)
    const req = deleteSandbox(name)
    if (f['dry-run'])
      return this.dryRun({
        dryRun: true as const,
        request: adminClientFrom(f, this.ctx, this.config.version, {dryRun: true}).describe(req),
      })
    await this.ctx.confirm(`Delete sandbox ${name} and everything in it?`, {yes: f.yes, irreversible: true})
    const client = adminClientFrom(f, this.ctx, this.config.version)
    try {
      await client.call(req)
    } finally {
      await client.close()
    }
    const profileRemoved = await forgetTeamSandboxProfile(name, this.ctx.env)
    this.out.success(`Sandbox ${name} deleted${profileRemoved ? `, and its profile` : ''}`)
    return {name, deleted: true, profileRemoved}
  }
}
