import {Flags} from '@oclif/core'
import {updateAgent} from '../../lib/api/agents.js'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, idArg} from '../../lib/flags.js'
import {agentUpdateRequest} from '../../lib/schemas/agents.js'
import {checkWith, compact} from '../../lib/validate.js'

export default class AgentsUpdate extends BaseCommand<typeof AgentsUpdate> {
  static override summary = 'Rename, pause or resume an agent (a paused agent is refused every action)'
  static override examples = [
    '<%= config.bin %> agents update Agent:… --pause',
    '<%= config.bin %> agents update Agent:… --name "Rent payer" --resume',
  ]
  static override args = {agentId: idArg('Agent')}
  static override flags = {
    name: Flags.string({description: 'new name'}),
    pause: Flags.boolean({description: 'pause the agent', exclusive: ['resume']}),
    resume: Flags.boolean({description: 'resume a paused agent'}),
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    const body = checkWith(
      agentUpdateRequest,
      compact({name: f.name, isPaused: f.pause ? true : f.resume ? false : undefined}),
    )
    const req = updateAgent(this.args.agentId, body)
    if (f['dry-run']) return this.dryRun(this.ctx.describe(req))
    const a = await this.ctx.client.call(req)
    this.out.success(`Updated ${a.id}: ${a.name}${a.isPaused ? ' (paused)' : ''}`)
    return a
  }
}
