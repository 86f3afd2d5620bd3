import {Flags} from '@oclif/core'
import {listTransactions} from '../../lib/api/transactions.js'
import {listPaged} from '../../lib/api/paging.js'
import {BaseCommand} from '../../lib/base-command.js'
import {listOutputFlags} from '../../lib/flags-output.js'
import {listView} from '../../lib/output/table.js'
import {transactionColumns} from '../../lib/output/transaction.js'
import {idFlag, pagingFlags} from '../../lib/flags.js'
import {renderTransactionList} from '../../lib/output/transaction.js'
import {TRANSACTION_STATUSES, transactionListQuery} from '../../lib/schemas/transactions.js'
import {checkWith, compact} from '../../lib/validate.js'
import {showList} from '../../lib/output/list-stream.js'

export default class TransactionsList extends BaseCommand<typeof TransactionsList> {
  static override summary = 'List transactions with filters and paging'
  static override examples = [
    '<%= config.bin %> transactions list --customer Customer:… --status PROCESSING',
    '<%= config.bin %> transactions list --sender InternalAccount:… --receiver ExternalAccount:…',
    '<%= config.bin %> transactions list --type OUTGOING --created-after 2026-01-01T00:00:00Z --all --json',
  ]
  static override flags = {
    customer: idFlag('Customer', {name: 'customerId'}),
    'platform-id': Flags.string({description: 'platformCustomerId'}),
    account: Flags.string({description: 'an account id on either side (accountIdentifier)'}),
    sender: Flags.string({description: 'the paying account id (senderAccountIdentifier)'}),
    receiver: Flags.string({description: 'the account id paid into (receiverAccountIdentifier)'}),
    status: Flags.string({description: 'only transactions in this status', options: [...TRANSACTION_STATUSES]}),
    type: Flags.string({description: 'direction, seen from the platform', options: ['INCOMING', 'OUTGOING']}),
    reference: Flags.string({description: 'a reference or transaction id to match'}),
    // One spelling with `customers list`; --since/--until (the first spelling) stay as hidden aliases.
    'created-after': Flags.string({
      description: 'created at or after this ISO date-time (startDate)',
      aliases: ['since'],
    }),
    'created-before': Flags.string({
      description: 'created at or before this ISO date-time (endDate)',
      aliases: ['until'],
    }),
    order: Flags.string({
      description: 'newest first (desc, the default) or oldest first (asc)',
      options: ['asc', 'desc'],
    }),
    ...pagingFlags,
    ...listOutputFlags,
  }

  async run() {
    const f = this.flags
    const view = listView(f, transactionColumns, {
      what: 'transactions',
      hint: 'Payments appear here once sent (`svc quote create`) or received.',
    })
    const query = checkWith(
      transactionListQuery,
      compact({
        customerId: f.customer,
        platformCustomerId: f['platform-id'],
        accountIdentifier: f.account,
        senderAccountIdentifier: f.sender,
        receiverAccountIdentifier: f.receiver,
        status: f.status,
        type: f.type,
        reference: f.reference,
        startDate: f['created-after'],
        endDate: f['created-before'],
        sortOrder: f.order,
      }),
    )
    const page = {limit: f.limit, cursor: f.cursor, all: f.all}
    return showList(
      this.out,
      view,
      transactionColumns,
      page,
      (p) => listPaged(this.ctx.client, listTransactions(query), p),
      (list) => renderTransactionList(this.out, list, view),
    )
  }
}
