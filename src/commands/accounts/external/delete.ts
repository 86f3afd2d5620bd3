import {deleteExternalAccount} from '../../../lib/api/accounts.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {dryRunFlag, idArg, yesFlag} from '../../../lib/flags.js'

export default class AccountsExternalDelete extends BaseCommand<typeof AccountsExternalDelete> {
  static override summary = 'Delete an external account (a trusted beneficiary must be untrusted first)'
  static override examples = ['<%= config.bin %> accounts external delete ExternalAccount:… --yes']
  static override args = {accountId: idArg('ExternalAccount')}
  static override flags = {yes: yesFlag, 'dry-run': dryRunFlag}

  async run() {
    const id = this.args.accountId
    const req = deleteExternalAccount(id)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    this.ctx.banner(`delete ${id}`)
    await this.ctx.confirm(`Delete ${id}?`, {yes: this.flags.yes, irreversible: true})
    await this.ctx.client.call(req)
    this.out.success(`Deleted ${id}`)
    return {id, deleted: true}
  }
}
