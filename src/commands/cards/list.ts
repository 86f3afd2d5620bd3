import {Flags} from '@oclif/core'
import {listCards} from '../../lib/api/cards.js'
import {listPaged} from '../../lib/api/paging.js'
import {BaseCommand} from '../../lib/base-command.js'
import {idFlag, pagingFlags} from '../../lib/flags.js'
import {cardColumns, renderCardList} from '../../lib/output/cards.js'
import {listOutputFlags} from '../../lib/flags-output.js'
import {listView} from '../../lib/output/table.js'
import {showList} from '../../lib/output/list-stream.js'
import {CARD_STATES} from '../../lib/schemas/card-response.js'
import {cardListQuery} from '../../lib/schemas/card-query.js'
import {checkWith, compact} from '../../lib/validate.js'

export default class CardsList extends BaseCommand<typeof CardsList> {
  static override summary = 'List cards by cardholder, funding account, state or your own card id'
  static override examples = [
    '<%= config.bin %> cards list --customer Customer:…',
    '<%= config.bin %> cards list --state FROZEN --all --json',
  ]
  static override flags = {
    customer: idFlag('Customer', {description: 'cardholder', name: 'cardholderId'}),
    account: idFlag('InternalAccount', {description: 'cards funded by this internal account', name: 'accountId'}),
    'platform-card-id': Flags.string({description: 'your own id for the card'}),
    state: Flags.string({description: 'card state', options: [...CARD_STATES]}),
    order: Flags.string({
      description: 'newest first (desc, the default) or oldest first (asc)',
      options: ['asc', 'desc'],
    }),
    ...pagingFlags,
    ...listOutputFlags,
  }

  async run() {
    const f = this.flags
    const view = listView(f, cardColumns, {what: 'cards', hint: 'Issue one with `svc cards issue`.'})
    const query = checkWith(
      cardListQuery,
      compact({
        cardholderId: f.customer,
        accountId: f.account,
        platformCardId: f['platform-card-id'],
        state: f.state,
        sortOrder: f.order,
      }),
    )
    const page = {limit: f.limit, cursor: f.cursor, all: f.all}
    return showList(
      this.out,
      view,
      cardColumns,
      page,
      (p) => listPaged(this.ctx.client, listCards(query), p),
      (list) => renderCardList(this.out, list, view),
    )
  }
}
