import {Flags} from '@oclif/core'
import {addBeneficialOwner} from '../../../lib/api/kyc.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {addressFlags} from '../../../lib/flags-address.js'
import {ownerFlags} from '../../../lib/flags-owner.js'
import {dryRunFlag, idArg, readJsonObject} from '../../../lib/flags.js'
import {ownerBody} from '../../../lib/workflows/kyc/owner-input.js'
import {renderOwners} from '../../../lib/output/kyc.js'

export default class KycOwnersAdd extends BaseCommand<typeof KycOwnersAdd> {
  static override summary = 'Register a beneficial owner, director, officer or control person of a business'
  static override description =
    'Every owner with 25% or more must be declared, plus one CONTROL_PERSON. Roles: UBO, DIRECTOR, ' +
    'COMPANY_OFFICER, CONTROL_PERSON, TRUSTEE, GENERAL_PARTNER.'
  static override examples = [
    '<%= config.bin %> kyc owners add Customer:0b6f... --role UBO --ownership 30 --first-name Ana --last-name Ruiz --birth-date 1985-04-02 --nationality US --id-type SSN --identifier 123-45-6789 --address-line1 "1 Main St" --address-postal-code 94105 --address-country US',
    '<%= config.bin %> kyc owners add Customer:0b6f... --data @owner.json',
  ]
  static override args = {customerId: idArg('Customer', 'the business (Customer:<id>)')}
  static override flags = {
    ...ownerFlags,
    ...addressFlags,
    data: Flags.string({description: 'request body as JSON: inline, @file.json or - (typed flags override it)'}),
    'dry-run': dryRunFlag,
  }

  async run() {
    const data = this.flags.data ? readJsonObject(this.flags.data) : {}
    const body = ownerBody(this.args.customerId, this.flags, data)
    const req = addBeneficialOwner(body)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    const owner = await this.ctx.client.call(req)
    this.out.success(`Registered ${owner.id} (${owner.roles.join(', ')}, ${owner.ownershipPercentage}%)`)
    await renderOwners(this.out, [owner])
    return owner
  }
}
