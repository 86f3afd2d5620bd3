import {Flags} from '@oclif/core'
import {myAction, myActions} from '../../../lib/api/agents.js'
import {listPaged} from '../../../lib/api/paging.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {optionalIdArg, pagingFlags} from '../../../lib/flags.js'
import {renderTable} from '../../../lib/output/render.js'
import {ACTION_STATUSES} from '../../../lib/schemas/agents.js'

export default class AgentsMeActions extends BaseCommand<typeof AgentsMeActions> {
  static override summary =
    'As the agent: my actions and where they stand (PENDING_APPROVAL, APPROVED, REJECTED), or one of them'
  static override examples = [
    '<%= config.bin %> agents me actions --status PENDING_APPROVAL --profile agent',
    '<%= config.bin %> agents me actions AgentAction:… --profile agent --json',
  ]
  static override args = {actionId: optionalIdArg('AgentAction')}
  static override flags = {
    status: Flags.string({description: 'only this status', options: [...ACTION_STATUSES]}),
    ...pagingFlags,
  }

  async run() {
    if (this.args.actionId) {
      const x = await this.ctx.client.call(myAction(this.args.actionId))
      if (!this.out.json) this.out.printJson(x)
      return x
    }
    const list = await listPaged(this.ctx.client, myActions({status: this.flags.status}), {
      limit: this.flags.limit,
      cursor: this.flags.cursor,
      all: this.flags.all,
    })
    await renderTable(
      this.out,
      ['action', 'type', 'status'],
      list.data.map((x) => [x.id, x.type, x.status]),
      {what: 'actions'},
    )
    return list
  }
}
