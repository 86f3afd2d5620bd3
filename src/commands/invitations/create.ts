import {Flags} from '@oclif/core'
import {createInvitation} from '../../lib/api/invitations.js'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag} from '../../lib/flags.js'
import {renderInvitation} from '../../lib/output/invitation.js'
import {invitationCreateRequest} from '../../lib/schemas/invitations.js'
import {checkWith, compact} from '../../lib/validate.js'

export default class InvitationsCreate extends BaseCommand<typeof InvitationsCreate> {
  static override summary = 'Create an UMA invitation for a customer to share'
  static override examples = [
    "<%= config.bin %> invitations create --inviter-uma '$ada@sandbox.uma.local' --first-name Ada --amount-minor 1250",
  ]
  static override flags = {
    'inviter-uma': Flags.string({description: 'UMA address of the inviting customer ($user@domain)', required: true}),
    'first-name': Flags.string({description: 'first name shown to the invitee'}),
    'amount-minor': Flags.string({
      description: "amount to send on claim, in smallest units of the inviter's currency (display only)",
    }),
    'expires-at': Flags.string({description: 'when the invitation expires (ISO date-time)'}),
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    const amount =
      f['amount-minor'] === undefined
        ? undefined
        : /^\d+$/.test(f['amount-minor'])
          ? Number(f['amount-minor'])
          : f['amount-minor']
    const body = checkWith(
      invitationCreateRequest,
      compact({
        inviterUma: f['inviter-uma'],
        firstName: f['first-name'],
        amountToSend: amount,
        expiresAt: f['expires-at'],
      }),
    )
    const req = createInvitation(body)
    if (f['dry-run']) return this.dryRun(this.ctx.describe(req))
    const inv = await this.ctx.client.call(req)
    this.out.success(`Created invitation ${inv.code}: ${inv.url}`)
    renderInvitation(this.out, inv)
    return inv
  }
}
