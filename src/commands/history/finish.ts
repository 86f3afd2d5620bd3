import {Args} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, yesFlag} from '../../lib/flags.js'
import {describeFinish, finishWrite} from '../../lib/history/finish.js'

export default class HistoryFinish extends BaseCommand<typeof HistoryFinish> {
  static override summary = 'Finish a write whose outcome is unknown: send it again with its recorded Idempotency-Key'
  static override description =
    'Sends record <n> again exactly as it was sent (method, path, body, Idempotency-Key), and only that write: ' +
    'the Service answers the first result if it was done, or does it now if it was not, so it happens once. ' +
    'Refused for a record whose outcome is known, that was finished already, or that carried no key.'
  static override examples = [
    '<%= config.bin %> history finish 12 --dry-run',
    '<%= config.bin %> history finish 12 --yes --json',
  ]
  static override args = {
    n: Args.integer({description: 'record number (see `svc history --unknown`)', required: true, min: 1}),
  }
  static override flags = {yes: yesFlag, 'dry-run': dryRunFlag}

  async run() {
    if (this.flags['dry-run']) return this.dryRun(describeFinish(this.ctx, this.args.n))
    const {record, status, answer} = await finishWrite(this.ctx, this.args.n, this.flags.yes)
    const id = (answer as {id?: unknown; status?: unknown} | undefined) ?? {}
    this.out.success(
      `Finished record ${record.n}: ${record.method} ${record.path} answered ${status}${typeof id.id === 'string' ? ` (${id.id}${typeof id.status === 'string' ? ` ${id.status}` : ''})` : ''}`,
    )
    return answer
  }
}
