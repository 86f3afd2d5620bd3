import {BaseCommand} from '../../lib/base-command.js'
import {clearHistory, historyDir} from '../../lib/history/store.js'

export default class HistoryClear extends BaseCommand<typeof HistoryClear> {
  static override summary = 'Delete the local record of writes (`svc history`)'
  static override examples = ['<%= config.bin %> history clear']

  async run() {
    const removed = clearHistory(this.ctx.env)
    this.out.success(removed ? `Deleted svc history (${historyDir(this.ctx.env)})` : 'svc history was empty already')
    return {cleared: removed}
  }
}
