import {updatePolicy} from '../../lib/api/agents.js'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, idArg} from '../../lib/flags.js'
import {policyFlags, policyFromFlags} from '../../lib/workflows/agent/input.js'
import {agentPolicyUpdateRequest} from '../../lib/schemas/agents.js'
import {checkWith} from '../../lib/validate.js'

export default class AgentsPolicy extends BaseCommand<typeof AgentsPolicy> {
  static override summary =
    "Change an agent's policy: permissions, execution mode, spending limits, allowed accounts, approval threshold"
  static override examples = [
    '<%= config.bin %> agents policy Agent:… --per-transaction 50.00 --limit-currency USD',
    '<%= config.bin %> agents policy Agent:… --mode APPROVAL_REQUIRED',
  ]
  static override args = {agentId: idArg('Agent')}
  static override flags = {...policyFlags, 'dry-run': dryRunFlag}

  async run() {
    const body = checkWith(agentPolicyUpdateRequest, policyFromFlags(this.flags, {partial: true}))
    const req = updatePolicy(this.args.agentId, body)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    const a = await this.ctx.client.call(req)
    this.out.success(`Policy of ${a.id} updated`)
    if (!this.out.json) this.out.printJson(a.policy)
    return a
  }
}
