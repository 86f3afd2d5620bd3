import {BaseCommand} from '../../lib/base-command.js'
import {idArg} from '../../lib/flags.js'
import {loadStatus} from '../../lib/workflows/kyc/status.js'
import {renderKycStatus} from '../../lib/output/kyc.js'

export default class KycStatus extends BaseCommand<typeof KycStatus> {
  static override summary = "Show a customer's KYC/KYB status, its latest submission and a checklist of what is missing"
  static override description = 'With --json: {customer, verification, beneficialOwners} as the API returns them.'
  static override examples = [
    '<%= config.bin %> kyc status Customer:0b6f...',
    '<%= config.bin %> kyc status Customer:0b6f... --json',
  ]
  static override args = {customerId: idArg('Customer')}

  async run() {
    const view = await loadStatus(this.ctx.client, this.args.customerId)
    renderKycStatus(this.out, view)
    return view
  }
}
