import {submitVerification} from '../../lib/api/kyc.js'
import {BaseCommand} from '../../lib/base-command.js'
import {describeRequest} from '../../lib/dry-run.js'
import {dryRunFlag, idArg} from '../../lib/flags.js'
import {loadStatus} from '../../lib/flows/kyc-status.js'
import {renderChecklist} from '../../lib/output/kyc.js'
import {renderKeyValue} from '../../lib/output/render.js'

export default class KycSubmit extends BaseCommand<typeof KycSubmit> {
  static override summary = "Submit the customer's data, documents and owners for verification"
  static override description = 'Prints the Verification. IN_PROGRESS: review has begun (`svc kyc wait`). RESOLVE_ERRORS: a checklist of what is missing; resolve it and submit again.'
  static override examples = ['<%= config.bin %> kyc submit Customer:0b6f...', '<%= config.bin %> kyc submit Customer:0b6f... --json | jq .errors']
  static override args = {customerId: idArg('Customer')}
  static override flags = {'dry-run': dryRunFlag}

  async run() {
    const customerId = this.args.customerId
    if (this.flags['dry-run']) return this.dryRun(describeRequest(undefined, this.ctx.profile.baseUrl, {method: 'POST', path: ['verifications'], body: {customerId}}))
    const v = await submitVerification(this.ctx.client, customerId)
    renderKeyValue(this.out, [['verification', v.id], ['customer', v.customerId], ['status', v.verificationStatus]])
    if (v.verificationStatus === 'RESOLVE_ERRORS') {
      this.out.warn(`Submission incomplete: ${v.errors.length} item(s) to resolve`)
      if (!this.jsonEnabled()) renderChecklist(this.out, v.errors, {...(await loadStatus(this.ctx.client, customerId)), verification: v})
    } else this.out.success(`Submitted; under review. Wait for the decision: svc kyc wait ${customerId}`)
    return v
  }
}
