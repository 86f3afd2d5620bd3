import {BaseCommand, withTimeout} from '../../lib/base-command.js'
import {idArg} from '../../lib/flags.js'
import {waitForDecision} from '../../lib/workflows/kyc/wait.js'
import {renderCustomer} from '../../lib/output/customer.js'

export default class KycWait extends BaseCommand<typeof KycWait> {
  static override summary = 'Wait until the customer is APPROVED (exit 0) or REJECTED (exit 1); exit 8 at --timeout'
  static override description =
    'Polls with backoff; a spinner on a terminal, silent otherwise. Fails at once (exit 6) when the ' +
    'latest submission still has RESOLVE_ERRORS.'
  static override examples = [
    '<%= config.bin %> kyc wait Customer:0b6f...',
    '<%= config.bin %> kyc wait Customer:0b6f... --timeout 2m --json',
  ]
  static override baseFlags = withTimeout('10m')
  static override args = {customerId: idArg('Customer')}

  async run() {
    const customer = await waitForDecision(this.ctx, this.args.customerId)
    this.out.success(`${customer.id} is APPROVED`)
    renderCustomer(this.out, customer)
    return customer
  }
}
