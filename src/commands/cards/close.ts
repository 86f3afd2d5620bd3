import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, idArg, yesFlag} from '../../lib/flags.js'
import {cardStateRequest} from '../../lib/workflows/cards.js'
import {renderCard} from '../../lib/output/cards.js'

export default class CardsClose extends BaseCommand<typeof CardsClose> {
  static override summary =
    'Close a card for good (terminal); open authorizations are reconciled and the live-card slot is freed'
  static override description =
    'Allowed moves: ACTIVE <-> FROZEN, ACTIVE or FROZEN -> CLOSED. Any other is refused with 409 (exit ' +
    '6): INVALID_STATE_TRANSITION, CARD_ALREADY_CLOSED, or CARD_NOT_MUTABLE for a closed card.'
  static override examples = ['<%= config.bin %> cards close Card:…']
  static override args = {cardId: idArg('Card')}
  static override flags = {yes: yesFlag, 'dry-run': dryRunFlag}

  async run() {
    const id = this.args.cardId
    const req = cardStateRequest(id, 'CLOSED')
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    this.ctx.banner(`close ${id}`)
    await this.ctx.confirm(`Close ${id} for good? A closed card cannot be reopened.`, {
      yes: this.flags.yes,
      irreversible: true,
    })
    const card = await this.ctx.client.call(req)
    this.out.success(`${id} is ${card.state}`)
    renderCard(this.out, card)
    return card
  }
}
