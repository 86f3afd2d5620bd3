import {cancelInvitation} from '../../lib/api/invitations.js'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, yesFlag} from '../../lib/flags.js'
import {invitationCodeArg} from '../../lib/flags-invitation.js'
import {renderInvitation} from '../../lib/output/invitation.js'

export default class InvitationsCancel extends BaseCommand<typeof InvitationsCancel> {
  static override summary = 'Cancel a pending invitation (it can no longer be claimed)'
  static override examples = ['<%= config.bin %> invitations cancel 019542f5ab12 --yes']
  static override args = {code: invitationCodeArg}
  static override flags = {yes: yesFlag, 'dry-run': dryRunFlag}

  async run() {
    const code = this.args.code
    const req = cancelInvitation(code)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    await this.ctx.confirm(`Cancel invitation ${code}?`, {yes: this.flags.yes})
    const inv = await this.ctx.client.call(req)
    this.out.success(`Cancelled ${inv.code}`)
    renderInvitation(this.out, inv)
    return inv
  }
}
