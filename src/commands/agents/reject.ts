import {Flags} from '@oclif/core'
import {decideAction} from '../../lib/api/agents.js'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, idArg, yesFlag} from '../../lib/flags.js'

export default class AgentsReject extends BaseCommand<typeof AgentsReject> {
  static override summary =
    'Reject an agent action waiting for platform approval (its payment fails and the funds come back)'
  static override examples = ['<%= config.bin %> agents reject Agent:… AgentAction:… --yes']
  static override args = {agentId: idArg('Agent'), actionId: idArg('AgentAction')}
  static override flags = {
    yes: yesFlag,
    'dry-run': dryRunFlag,
    reason: Flags.string({description: 'why, stored on the action'}),
  }

  async run() {
    const req = decideAction(this.args.agentId, this.args.actionId, 'reject', this.flags.reason)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    this.ctx.banner('reject ' + this.args.actionId)
    await this.ctx.confirm('Reject ' + this.args.actionId + '?', {yes: this.flags.yes})
    const x = await this.ctx.client.call(req)
    this.out.success(
      `${x.id}: ${x.status}${x.transaction ? ` (transaction ${x.transaction.id} ${x.transaction.status})` : ''}`,
    )
    return x
  }
}
