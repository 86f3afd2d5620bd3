import {Flags} from '@oclif/core'
import {myExternalAccounts, myInternalAccounts} from '../../../lib/api/agents.js'
import {listPaged} from '../../../lib/api/paging.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {pagingFlags} from '../../../lib/flags.js'
import {renderTable} from '../../../lib/output/render.js'

export default class AgentsMeAccounts extends BaseCommand<typeof AgentsMeAccounts> {
  static override summary = "As the agent: the customer's internal accounts (or --external: its beneficiaries)"
  static override examples = [
    '<%= config.bin %> agents me accounts --profile agent --json',
    '<%= config.bin %> agents me accounts --external --profile agent',
  ]
  static override flags = {
    external: Flags.boolean({description: 'list external accounts instead'}),
    currency: Flags.string({description: 'only this currency'}),
    ...pagingFlags,
  }

  async run() {
    const f = this.flags
    const page = {limit: f.limit, cursor: f.cursor, all: f.all}
    if (f.external) {
      const list = await listPaged(this.ctx.client, myExternalAccounts({currency: f.currency}), page)
      await renderTable(
        this.out,
        ['id', 'currency', 'status'],
        list.data.map((a) => [a.id, String(a.currency ?? ''), String(a.status ?? '')]),
      )
      return list
    }
    const list = await listPaged(this.ctx.client, myInternalAccounts({currency: f.currency}), page)
    await renderTable(
      this.out,
      ['id', 'type', 'currency', 'balance'],
      list.data.map((a) => [a.id, String(a.type ?? ''), a.balance.currency.code, String(a.balance.amount)]),
    )
    return list
  }
}
