import {Flags} from '@oclif/core'
import {listAgents} from '../../lib/api/agents.js'
import {listPaged} from '../../lib/api/paging.js'
import {BaseCommand} from '../../lib/base-command.js'
import {idFlag, pagingFlags} from '../../lib/flags.js'
import {renderTable} from '../../lib/output/render.js'
import {compact} from '../../lib/validate.js'

export default class AgentsList extends BaseCommand<typeof AgentsList> {
  static override summary = 'List agents, by customer, paused or connected'
  static override examples = ['<%= config.bin %> agents list --customer Customer:… --json']
  static override flags = {
    customer: idFlag('Customer', {name: 'customerId'}),
    paused: Flags.boolean({description: 'only paused agents (--no-paused: only active)', allowNo: true}),
    connected: Flags.boolean({
      description: 'only agents that redeemed a device code (--no-connected: the others)',
      allowNo: true,
    }),
    ...pagingFlags,
  }

  async run() {
    const f = this.flags
    const list = await listPaged(
      this.ctx.client,
      listAgents(compact({customerId: f.customer, isPaused: f.paused, isConnected: f.connected})),
      {limit: f.limit, cursor: f.cursor, all: f.all},
    )
    await renderTable(
      this.out,
      ['id', 'name', 'customer', 'paused', 'connected'],
      list.data.map((a) => [a.id, a.name, a.customerId, String(a.isPaused), String(a.isConnected)]),
      {what: 'agents', hint: 'Create one with `svc agents create`.'},
    )
    return list
  }
}
