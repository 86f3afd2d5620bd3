import {getCard} from '../../lib/api/cards.js'
import {BaseCommand} from '../../lib/base-command.js'
import {idArg} from '../../lib/flags.js'
import {renderCard} from '../../lib/output/cards.js'

export default class CardsGet extends BaseCommand<typeof CardsGet> {
  static override summary =
    'Show a card: state and reason, last four digits, expiry, funding accounts, limit (never the full number)'
  static override examples = ['<%= config.bin %> cards get Card:… --json']
  static override args = {cardId: idArg('Card')}

  async run() {
    const card = await this.ctx.client.call(getCard(this.args.cardId))
    renderCard(this.out, card)
    return card
  }
}
