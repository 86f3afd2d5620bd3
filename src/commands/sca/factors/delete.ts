import {Args} from '@oclif/core'
import {deleteFactor} from '../../../lib/api/sca.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {dryRunFlag, yesFlag} from '../../../lib/flags.js'
import {customerArg} from '../../../lib/workflows/sca/flags.js'

export default class ScaFactorsDelete extends BaseCommand<typeof ScaFactorsDelete> {
  static override summary =
    "Delete an enrolled SCA factor by its credentialId (the customer's passkey), so another can be enrolled"
  static override examples = ['<%= config.bin %> sca factors delete Customer:… cred-123 --yes']
  static override args = {
    ...customerArg,
    credentialId: Args.string({description: 'the factor credentialId (see `sca factors list`)', required: true}),
  }
  static override flags = {yes: yesFlag, 'dry-run': dryRunFlag}

  async run() {
    const req = deleteFactor(this.args.customerId, this.args.credentialId)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    this.ctx.banner(`delete SCA factor ${this.args.credentialId}`)
    await this.ctx.confirm(`Delete SCA factor ${this.args.credentialId} of ${this.args.customerId}?`, {
      yes: this.flags.yes,
      irreversible: true,
    })
    await this.ctx.client.call(req)
    this.out.success(`Deleted ${this.args.credentialId}`)
    return {customerId: this.args.customerId, credentialId: this.args.credentialId, deleted: true}
  }
}
