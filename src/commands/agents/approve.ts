import {decideAction} from '../../lib/api/agents.js'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, idArg, yesFlag} from '../../lib/flags.js'

export default class AgentsApprove extends BaseCommand<typeof AgentsApprove> {
  static override summary = 'Approve an agent action waiting for platform approval (its payment starts)'
  static override examples = ['<%= config.bin %> agents approve Agent:… AgentAction:… --yes']
  static override args = {agentId: idArg('Agent'), actionId: idArg('AgentAction')}
  static override flags = {yes: yesFlag, 'dry-run': dryRunFlag}

  async run() {
    const req = decideAction(this.args.agentId, this.args.actionId, 'approve')
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    this.ctx.banner('approve ' + this.args.actionId)
    await this.ctx.confirm('Approve ' + this.args.actionId + '?', {yes: this.flags.yes})
    const x = await this.ctx.client.call(req)
    this.out.success(
      `${x.id}: ${x.status}${x.transaction ? ` (transaction ${x.transaction.id} ${x.transaction.status})` : ''}`,
    )
    return x
  }
}
