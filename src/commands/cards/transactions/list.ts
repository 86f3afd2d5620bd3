import {Flags} from '@oclif/core'
import {listCardTransactions} from '../../../lib/api/cards.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {idFlag, pagingFlags} from '../../../lib/flags.js'
import {cardTransactionColumns, renderCardTransactionList} from '../../../lib/output/cards.js'
import {listOutputFlags} from '../../../lib/flags-output.js'
import {listView} from '../../../lib/output/table.js'
import {CARD_TRANSACTION_STATUSES, cardTransactionFilter} from '../../../lib/schemas/cards.js'
import {showList} from '../../../lib/output/list-stream.js'
import {checkWith, compact} from '../../../lib/validate.js'

export default class CardsTransactionsList extends BaseCommand<typeof CardsTransactionsList> {
  static override summary =
    'List card transactions (type CARD in GET /transactions) by card, cardholder, funding account or status'
  static override description =
    'The published list narrows by cardholder and funding account; the card, the CARD type and the card ' +
    'status are picked from its pages, so a page may show fewer rows than --limit (--all reads every ' +
    'page).'
  static override examples = [
    '<%= config.bin %> cards transactions list --card Card:…',
    '<%= config.bin %> cards transactions list --customer Customer:… --status SETTLED --json',
  ]
  static override flags = {
    card: idFlag('Card', {description: 'transactions of this card', name: 'cardId'}),
    customer: idFlag('Customer', {description: 'cardholder', name: 'customerId'}),
    account: idFlag('InternalAccount', {description: 'funding internal account', name: 'accountIdentifier'}),
    status: Flags.string({description: 'settlement status', options: [...CARD_TRANSACTION_STATUSES]}),
    order: Flags.string({
      description: 'newest first (desc, the default) or oldest first (asc)',
      options: ['asc', 'desc'],
    }),
    ...pagingFlags,
    ...listOutputFlags,
  }

  async run() {
    const f = this.flags
    const view = listView(f, cardTransactionColumns, {what: 'card transactions'})
    const filter = checkWith(
      cardTransactionFilter,
      compact({
        cardId: f.card,
        customerId: f.customer,
        accountIdentifier: f.account,
        status: f.status,
        sortOrder: f.order,
      }),
    )
    const page = {limit: f.limit, cursor: f.cursor, all: f.all}
    return showList(
      this.out,
      view,
      cardTransactionColumns,
      page,
      (p) => listCardTransactions(this.ctx.client, filter, p),
      (list) => renderCardTransactionList(this.out, list, view),
    )
  }
}
