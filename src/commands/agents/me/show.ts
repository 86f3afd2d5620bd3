import {me} from '../../../lib/api/agents.js'
import {BaseCommand} from '../../../lib/base-command.js'

export default class AgentsMeShow extends BaseCommand<typeof AgentsMeShow> {
  static override summary = 'As the agent (an agent profile): who am I, my policy and usage'
  static override examples = ['<%= config.bin %> agents me show --profile agent --json']

  async run() {
    const a = await this.ctx.client.call(me())
    if (!this.out.json) this.out.printJson(a)
    return a
  }
}
