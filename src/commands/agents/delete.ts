import {deleteAgent} from '../../lib/api/agents.js'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, idArg, yesFlag} from '../../lib/flags.js'

export default class AgentsDelete extends BaseCommand<typeof AgentsDelete> {
  static override summary = 'Delete an agent; its access token stops working at once'
  static override examples = ['<%= config.bin %> agents delete Agent:… --yes']
  static override args = {agentId: idArg('Agent')}
  static override flags = {yes: yesFlag, 'dry-run': dryRunFlag}

  async run() {
    const req = deleteAgent(this.args.agentId)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    this.ctx.banner(`delete ${this.args.agentId}`)
    await this.ctx.confirm(`Delete ${this.args.agentId}?`, {yes: this.flags.yes, irreversible: true})
    await this.ctx.client.call(req)
    this.out.success(`Deleted ${this.args.agentId}`)
    return {id: this.args.agentId, deleted: true}
  }
}
