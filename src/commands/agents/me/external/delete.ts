import {myExternalAccountDelete} from '../../../../lib/api/agents.js'
import {BaseCommand} from '../../../../lib/base-command.js'
import {dryRunFlag, idArg, yesFlag} from '../../../../lib/flags.js'

export default class AgentsMeExternalDelete extends BaseCommand<typeof AgentsMeExternalDelete> {
  static override summary = "As the agent: delete one of the customer's beneficiaries (needs MANAGE_EXTERNAL_ACCOUNTS)"
  static override examples = ['<%= config.bin %> agents me external delete ExternalAccount:… --yes --profile agent']
  static override args = {externalAccountId: idArg('ExternalAccount')}
  static override flags = {yes: yesFlag, 'dry-run': dryRunFlag}

  async run() {
    const req = myExternalAccountDelete(this.args.externalAccountId)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    await this.ctx.confirm(`Delete ${this.args.externalAccountId}?`, {yes: this.flags.yes, irreversible: true})
    await this.ctx.client.call(req)
    this.out.success(`Deleted ${this.args.externalAccountId}`)
    return {id: this.args.externalAccountId, deleted: true}
  }
}
