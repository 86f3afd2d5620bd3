import {Flags} from '@oclif/core'
import {getCustomer, getEndUserTerms, updateCustomer} from '../../lib/api/customers.js'
import {BaseCommand} from '../../lib/base-command.js'
import {choiceFlag, dryRunFlag, optionalIdArg} from '../../lib/flags.js'
import {renderKeyValue} from '../../lib/output/render.js'
import {customerSchema} from '../../lib/schemas/customer.js'
import {checkUpdate} from '../../lib/workflows/customer/input.js'
import {usageError} from '../../lib/errors.js'

export default class CustomersTerms extends BaseCommand<typeof CustomersTerms> {
  static override summary = "Show the current end-user terms, or record a customer's acceptance with --accept"
  static override examples = [
    '<%= config.bin %> customers terms',
    '<%= config.bin %> customers terms Customer:0b6f... --accept --ip 203.0.113.7',
  ]
  static override args = {customerId: optionalIdArg('Customer', 'customer whose acceptance to record (with --accept)')}
  static override flags = {
    accept: Flags.boolean({description: 'record endUserTermsConsent on the customer'}),
    ip: Flags.string({description: "the end user's IP address at acceptance", default: '127.0.0.1'}),
    method: Flags.string({
      description: 'how the user accepted',
      options: ['CHECKBOX', 'CLICK_TO_ACCEPT'],
      default: 'CLICK_TO_ACCEPT',
    }),
    version: Flags.string({description: 'terms version accepted (default: the current one, looked up)'}),
    'accepted-at': Flags.string({description: 'when the user accepted, ISO 8601 with a zone (default: now)'}),
    type: choiceFlag(['INDIVIDUAL', 'BUSINESS'], {description: 'customer type (looked up when omitted)'}),
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    if (f.accept && !this.args.customerId)
      throw usageError('--accept needs a customer id', 'svc customers terms <Customer:id> --accept')
    if (!f.accept) {
      const show = getEndUserTerms()
      if (f['dry-run']) return this.dryRun(this.ctx.describe(show))
      const terms = await this.ctx.client.call(show)
      renderKeyValue(this.out, [
        ['version', terms.version],
        ['url', terms.url],
      ])
      return terms
    }
    const id = this.args.customerId!
    if (f['dry-run'] && (f.version === undefined || f.type === undefined))
      throw usageError(
        '--dry-run sends nothing, so the current terms version and the customer type are not looked up',
        'Give --version and --type with --dry-run.',
      )
    // customerType is the PATCH discriminator: looked up rather than asked for.
    const consent = {
      acceptedAt: f['accepted-at'] ?? new Date(this.ctx.now()).toISOString(),
      ipAddress: f.ip,
      termsVersion: f.version ?? (await this.ctx.client.call(getEndUserTerms())).version,
      acceptanceMethod: f.method,
    }
    const customerType = f.type ?? (await this.ctx.client.call(getCustomer(id))).customerType
    const req = updateCustomer(id, checkUpdate({customerType, endUserTermsConsent: consent}))
    if (f['dry-run']) return this.dryRun(this.ctx.describe(req))
    const res = await this.ctx.client.request(req)
    const customer = this.ctx.client.parse(customerSchema, res.body, 'customer')
    this.out.success(`Recorded acceptance of terms v${consent.termsVersion} for ${id}`)
    return customer
  }
}
