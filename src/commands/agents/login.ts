import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'
import {InputError} from '../../lib/errors.js'
import {dryRunFlag} from '../../lib/flags.js'
import {agentLogin, describeRedeem} from '../../lib/workflows/agent/login.js'
import {deviceCode} from '../../lib/schemas/agents.js'
import {checkWith} from '../../lib/validate.js'

export default class AgentsLogin extends BaseCommand<typeof AgentsLogin> {
  static override secretArgs = ['code']
  static override summary =
    'Act as an agent: redeem its device code and keep the access token in a profile (0600, never printed)'
  static override examples = [
    '<%= config.bin %> agents login ABCD-2345 --as bill-payer',
    '<%= config.bin %> agents me show --profile bill-payer',
  ]
  static override args = {
    code: Args.string({description: 'the device code the platform issued (ABCD-2345)', required: true}),
  }
  static override flags = {
    as: Flags.string({description: 'name of the agent profile to save', default: 'agent'}),
    'dry-run': dryRunFlag,
  }

  async run() {
    const code = checkWith(deviceCode, this.args.code, 'code')
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(this.flags.as))
      throw new InputError([{field: 'as', message: 'must be a profile name of letters, digits, _ and -'}])
    if (this.flags['dry-run']) return this.dryRun(describeRedeem(this.ctx))
    const done = await agentLogin(this.ctx, code, this.flags.as)
    this.out.success(
      `Logged in as ${done.agentName} (${done.agentId}); profile "${done.profile}" holds the access token`,
    )
    this.out.info(this.out.dim(`Act as the agent: svc agents me show --profile ${done.profile}`))
    return done
  }
}
