import {getCardTransaction} from '../../../lib/api/cards.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {idArg} from '../../../lib/flags.js'
import {renderCardTransaction} from '../../../lib/output/cards.js'

export default class CardsTransactionsGet extends BaseCommand<typeof CardsTransactionsGet> {
  static override summary = 'Show a card transaction: status, authorized, settled and refunded amounts, pulls'
  static override examples = ['<%= config.bin %> cards transactions get CardTransaction:… --json']
  static override args = {cardTransactionId: idArg('CardTransaction')}

  async run() {
    const t = await this.ctx.client.call(getCardTransaction(this.args.cardTransactionId))
    renderCardTransaction(this.out, t)
    return t
  }
}
