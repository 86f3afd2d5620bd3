import {Flags} from '@oclif/core'
import {createAgent} from '../../lib/api/agents.js'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, idFlag} from '../../lib/flags.js'
import {policyFlags, policyFromFlags} from '../../lib/workflows/agent/input.js'
import {renderKeyValue} from '../../lib/output/render.js'
import {agentCreateRequest} from '../../lib/schemas/agents.js'
import {checkWith} from '../../lib/validate.js'

export default class AgentsCreate extends BaseCommand<typeof AgentsCreate> {
  static override summary =
    'Create an agent for a customer with its policy; prints the device code the agent logs in with'
  static override examples = [
    '<%= config.bin %> agents create --customer Customer:… --name "Bill payer" --permission CREATE_QUOTES --permission EXECUTE_QUOTES --per-transaction 100.00',
  ]
  static override flags = {
    customer: idFlag('Customer', {description: 'the customer the agent acts for', required: true, name: 'customerId'}),
    name: Flags.string({description: 'agent name', required: true}),
    ...policyFlags,
    'dry-run': dryRunFlag,
  }

  async run() {
    const body = checkWith(agentCreateRequest, {
      name: this.flags.name,
      customerId: this.flags.customer,
      policy: policyFromFlags(this.flags, {partial: false}),
    })
    const req = createAgent(body)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    const created = await this.ctx.client.call(req)
    this.out.success(`Created ${created.agent.id} for ${created.agent.customerId}`)
    renderKeyValue(this.out, [
      ['device code', created.deviceCode.code],
      ['expires', created.deviceCode.expiresAt],
    ])
    this.out.info(this.out.dim(`On the agent's machine: svc agents login ${created.deviceCode.code}`))
    return created
  }
}
