import {getInvitation} from '../../lib/api/invitations.js'
import {BaseCommand} from '../../lib/base-command.js'
import {invitationCodeArg} from '../../lib/flags-invitation.js'
import {renderInvitation} from '../../lib/output/invitation.js'

export default class InvitationsGet extends BaseCommand<typeof InvitationsGet> {
  static override summary = 'Show an invitation and its status'
  static override examples = ['<%= config.bin %> invitations get 019542f5ab12']
  static override args = {code: invitationCodeArg}

  async run() {
    const inv = await this.ctx.client.call(getInvitation(this.args.code))
    renderInvitation(this.out, inv)
    return inv
  }
}
