import {Flags} from '@oclif/core'
import {untrustExternalAccount, untrustRequest} from '../../../lib/api/accounts.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {dryRunFlag, idArg, yesFlag} from '../../../lib/flags.js'

export default class AccountsExternalUntrust extends BaseCommand<typeof AccountsExternalUntrust> {
  static override summary = 'Remove trusted-beneficiary status (then the account can be deleted)'
  static override examples = [
    '<%= config.bin %> accounts external untrust ExternalAccount:…',
    '<%= config.bin %> accounts external untrust ExternalAccount:… --code 123456',
  ]
  static override args = {accountId: idArg('ExternalAccount')}
  static override flags = {
    code: Flags.string({description: 'SCA code from the customer, when the provider asks for one'}),
    yes: yesFlag,
    'dry-run': dryRunFlag,
  }

  async run() {
    const id = this.args.accountId
    // The first request; an SCA confirm may follow it, depending on the answer.
    const req = untrustRequest(id)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    this.ctx.banner(`untrust ${id}`)
    await this.ctx.confirm(`Untrust ${id}?`, {yes: this.flags.yes})
    const r = await untrustExternalAccount(this.ctx.client, req, this.flags.code)
    this.out.success(`${id} is ${r.trusted ? 'still trusted' : 'no longer trusted'}`)
    return {id, trusted: r.trusted}
  }
}
