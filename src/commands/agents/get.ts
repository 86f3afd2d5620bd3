import {getAgent} from '../../lib/api/agents.js'
import {BaseCommand} from '../../lib/base-command.js'
import {idArg} from '../../lib/flags.js'

export default class AgentsGet extends BaseCommand<typeof AgentsGet> {
  static override summary = 'Show an agent: policy, usage today and this month, paused and connected'
  static override examples = ['<%= config.bin %> agents get Agent:… --json']
  static override args = {agentId: idArg('Agent')}

  async run() {
    const a = await this.ctx.client.call(getAgent(this.args.agentId))
    if (!this.out.json) this.out.printJson(a)
    return a
  }
}
