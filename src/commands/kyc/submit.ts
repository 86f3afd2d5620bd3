import {Errors} from '@oclif/core'
import {submitVerification} from '../../lib/api/kyc.js'
import {BaseCommand} from '../../lib/base-command.js'
import {ExitCode} from '../../lib/exit-codes.js'
import {dryRunFlag, idArg} from '../../lib/flags.js'
import {explainNotSubmittable, loadStatus} from '../../lib/workflows/kyc/status.js'
import {renderChecklist} from '../../lib/output/kyc.js'
import {renderKeyValue} from '../../lib/output/render.js'

export default class KycSubmit extends BaseCommand<typeof KycSubmit> {
  static override summary = "Submit the customer's data, documents and owners for verification"
  static override description =
    'Prints the Verification. IN_PROGRESS: review has begun (`svc kyc wait`), exit 0. RESOLVE_ERRORS: a checklist of what is missing, exit 6 (with --json the Verification is still printed); resolve it and submit again. A customer already decided or under review is refused (400 INVALID_INPUT on customerId), exit 6. So `svc kyc submit X && svc kyc wait X` stops where it should.'
  static override examples = [
    '<%= config.bin %> kyc submit Customer:0b6f...',
    '<%= config.bin %> kyc submit Customer:0b6f... --json | jq .errors',
  ]
  static override args = {customerId: idArg('Customer')}
  static override flags = {'dry-run': dryRunFlag}

  async run() {
    const customerId = this.args.customerId
    const req = submitVerification(customerId)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    const v = await explainNotSubmittable(this.ctx.client.call(req), customerId)
    renderKeyValue(this.out, [
      ['verification', v.id],
      ['customer', v.customerId],
      ['status', v.verificationStatus],
    ])
    if (v.verificationStatus === 'RESOLVE_ERRORS') {
      this.out.warn(`Submission incomplete: ${v.errors.length} item(s) to resolve`)
      if (!this.jsonEnabled())
        renderChecklist(this.out, v.errors, {...(await loadStatus(this.ctx.client, customerId)), verification: v})
      else this.out.printJson(v)
      // Not an error document: the Verification is the answer, and the exit code tells a script it is incomplete.
      throw new Errors.ExitError(ExitCode.CONFLICT)
    } else this.out.success(`Submitted; under review. Wait for the decision: svc kyc wait ${customerId}`)
    return v
  }
}
