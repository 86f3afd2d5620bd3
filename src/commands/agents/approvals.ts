import {listApprovals} from '../../lib/api/agents.js'
import {listPaged} from '../../lib/api/paging.js'
import {BaseCommand} from '../../lib/base-command.js'
import {idFlag, pagingFlags} from '../../lib/flags.js'
import {renderTable} from '../../lib/output/render.js'
import {compact} from '../../lib/validate.js'

export default class AgentsApprovals extends BaseCommand<typeof AgentsApprovals> {
  static override summary = 'List agent actions waiting for platform approval (approve or reject each)'
  static override examples = ['<%= config.bin %> agents approvals --agent Agent:… --json']
  static override flags = {
    agent: idFlag('Agent', {name: 'agentId'}),
    customer: idFlag('Customer', {name: 'customerId'}),
    ...pagingFlags,
  }

  async run() {
    const f = this.flags
    const list = await listPaged(this.ctx.client, listApprovals(compact({agentId: f.agent, customerId: f.customer})), {
      limit: f.limit,
      cursor: f.cursor,
      all: f.all,
    })
    await renderTable(
      this.out,
      ['action', 'agent', 'type', 'status'],
      list.data.map((x) => [x.id, x.agentId, x.type, x.status]),
      {what: 'actions waiting for approval'},
    )
    return list
  }
}
