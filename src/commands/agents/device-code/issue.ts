import {issueDeviceCode} from '../../../lib/api/agents.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {dryRunFlag, idArg} from '../../../lib/flags.js'
import {renderKeyValue} from '../../../lib/output/render.js'

export default class AgentsDeviceCodeIssue extends BaseCommand<typeof AgentsDeviceCodeIssue> {
  static override summary = 'Issue a new device code for an agent (an earlier unredeemed code stops working)'
  static override examples = ['<%= config.bin %> agents device-code issue Agent:… --json']
  static override args = {agentId: idArg('Agent')}
  static override flags = {'dry-run': dryRunFlag}

  async run() {
    const req = issueDeviceCode(this.args.agentId)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    const dc = await this.ctx.client.call(req)
    renderKeyValue(this.out, [
      ['device code', dc.code],
      ['expires', dc.expiresAt],
    ])
    this.out.info(this.out.dim(`On the agent's machine: svc agents login ${dc.code}`))
    return dc
  }
}
