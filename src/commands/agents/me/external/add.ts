import {myExternalAccountAdd} from '../../../../lib/api/agents.js'
import {BaseCommand} from '../../../../lib/base-command.js'
import {dryRunFlag} from '../../../../lib/flags.js'
import {externalAccountBody, externalAccountFlags} from '../../../../lib/workflows/external-account-input.js'

const {customer: _customer, ...flags} = externalAccountFlags

export default class AgentsMeExternalAdd extends BaseCommand<typeof AgentsMeExternalAdd> {
  static override summary =
    "As the agent: register a beneficiary for the agent's customer (needs MANAGE_EXTERNAL_ACCOUNTS); formats checked locally"
  static override examples = [
    '<%= config.bin %> agents me external add --type CLABE --clabe 002010077777777771 --beneficiary-name "Maria Garcia" --profile agent',
  ]
  static override flags = {...flags, 'dry-run': dryRunFlag}

  async run() {
    const body = externalAccountBody(
      {...this.flags, customer: undefined},
      {ownerImplied: true, warn: (m) => this.out.warn(m)},
    )
    const req = myExternalAccountAdd(body)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    const account = await this.ctx.client.call(req)
    this.out.success(`Registered ${account.id} (${account.status})`)
    return account
  }
}
