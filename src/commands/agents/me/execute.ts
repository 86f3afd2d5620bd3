import {myExecute} from '../../../lib/api/agents.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {dryRunFlag, idArg, idempotencyKeyFlag} from '../../../lib/flags.js'
import {explainAction} from '../../../lib/workflows/agent/actions.js'

export default class AgentsMeExecute extends BaseCommand<typeof AgentsMeExecute> {
  static override summary =
    'As the agent: execute a quote under the policy; beyond it the payment waits for the platform (PENDING_APPROVAL)'
  static override examples = ['<%= config.bin %> agents me execute Quote:… --profile agent --json']
  static override args = {quoteId: idArg('Quote')}
  static override flags = {'idempotency-key': idempotencyKeyFlag, 'dry-run': dryRunFlag}

  async run() {
    const req = myExecute(this.args.quoteId)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    const x = await this.ctx.client.call(req)
    explainAction(this.out, x)
    return x
  }
}
