import {myExecute} from '../../../lib/api/agents.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {idArg, idempotencyKeyFlag} from '../../../lib/flags.js'
import {explainAction} from '../../../lib/workflows/agent/actions.js'

export default class AgentsMeExecute extends BaseCommand<typeof AgentsMeExecute> {
  static override summary =
    'As the agent: execute a quote under the policy; beyond it the payment waits for the platform (PENDING_APPROVAL)'
  static override examples = ['<%= config.bin %> agents me execute Quote:… --profile agent --json']
  static override args = {quoteId: idArg('Quote')}
  static override flags = {'idempotency-key': idempotencyKeyFlag}

  async run() {
    const x = await this.ctx.client.call(myExecute(this.args.quoteId))
    explainAction(this.out, x)
    return x
  }
}
