import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, idArg} from '../../lib/flags.js'
import {cardStateRequest} from '../../lib/workflows/cards.js'
import {renderCard} from '../../lib/output/cards.js'

export default class CardsFreeze extends BaseCommand<typeof CardsFreeze> {
  static override summary =
    'Freeze a card: new authorizations are declined (CARD_PAUSED); settlements and returns continue'
  static override description =
    'Allowed moves: ACTIVE <-> FROZEN, ACTIVE or FROZEN -> CLOSED. Any other is refused with 409 (exit ' +
    '6): INVALID_STATE_TRANSITION, CARD_ALREADY_CLOSED, or CARD_NOT_MUTABLE for a closed card.'
  static override examples = ['<%= config.bin %> cards freeze Card:…']
  static override args = {cardId: idArg('Card')}
  static override flags = {'dry-run': dryRunFlag}

  async run() {
    const id = this.args.cardId
    const req = cardStateRequest(id, 'FROZEN')
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    this.ctx.banner(`freeze ${id}`)
    const card = await this.ctx.client.call(req)
    this.out.success(`${id} is ${card.state}`)
    renderCard(this.out, card)
    return card
  }
}
