import {Flags} from '@oclif/core'
import {claimInvitation} from '../../lib/api/invitations.js'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag} from '../../lib/flags.js'
import {invitationCodeArg} from '../../lib/flags-invitation.js'
import {renderInvitation} from '../../lib/output/invitation.js'
import {invitationClaimRequest} from '../../lib/schemas/invitations.js'
import {checkWith} from '../../lib/validate.js'

export default class InvitationsClaim extends BaseCommand<typeof InvitationsClaim> {
  static override summary = 'Claim an invitation for the invitee (once; a claimed or cancelled one is refused)'
  static override examples = ["<%= config.bin %> invitations claim 019542f5ab12 --invitee-uma '$grace@example.com'"]
  static override args = {code: invitationCodeArg}
  static override flags = {
    'invitee-uma': Flags.string({description: 'UMA address of the customer claiming it', required: true}),
    'dry-run': dryRunFlag,
  }

  async run() {
    const body = checkWith(invitationClaimRequest, {inviteeUma: this.flags['invitee-uma']})
    const req = claimInvitation(this.args.code, body.inviteeUma)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    const inv = await this.ctx.client.call(req)
    this.out.success(`Claimed ${inv.code} for ${inv.inviteeUma}`)
    renderInvitation(this.out, inv)
    return inv
  }
}
