import {Flags} from '@oclif/core'
import {updateBeneficialOwner, withStoredAddress} from '../../../lib/api/kyc.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {addressFlags} from '../../../lib/flags-address.js'
import {ownerFlags} from '../../../lib/flags-owner.js'
import {dryRunFlag, idArg, readJsonObject} from '../../../lib/flags.js'
import {ownerPatchBody} from '../../../lib/workflows/kyc/owner-input.js'
import {renderOwners} from '../../../lib/output/kyc.js'

export default class KycOwnersUpdate extends BaseCommand<typeof KycOwnersUpdate> {
  static override summary =
    'Change a beneficial owner: roles, ownership, or personal details (only what you give changes)'
  static override description =
    'Personal details and the address merge field by field. Refused (exit 6) while the business is under ' +
    'review (PENDING), like adding owners and documents.'
  static override examples = [
    '<%= config.bin %> kyc owners update BeneficialOwner:… --ownership 40 --role UBO --role DIRECTOR',
    '<%= config.bin %> kyc owners update BeneficialOwner:… --email ana@example.com --address-postal-code 94107',
  ]
  static override args = {beneficialOwnerId: idArg('BeneficialOwner')}
  static override flags = {
    ...ownerFlags,
    ...addressFlags,
    data: Flags.string({description: 'fields to change as JSON: inline, @file.json or - (typed flags override it)'}),
    'dry-run': dryRunFlag,
  }

  async run() {
    const data = this.flags.data ? readJsonObject(this.flags.data) : {}
    const body = ownerPatchBody(this.flags, data)
    const id = this.args.beneficialOwnerId
    const req = updateBeneficialOwner(id, body)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    const owner = await this.ctx.client.call(await withStoredAddress(this.ctx.client, req))
    this.out.success(`Updated ${owner.id} (${owner.roles.join(', ')}, ${owner.ownershipPercentage}%)`)
    await renderOwners(this.out, [owner])
    return owner
  }
}
