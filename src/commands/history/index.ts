import {Flags} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'
import {renderHistory, selectHistory} from '../../lib/history/list.js'
import {readHistory} from '../../lib/history/store.js'

export default class History extends BaseCommand<typeof History> {
  static override summary = 'The local record of the writes svc sent: keys, answers, outcomes (ok, failed, unknown)'
  static override description =
    'Every command that sends a write appends one record per write to <config dir>/history/history.jsonl ' +
    '(0600; secrets redacted; bounded at 256 KiB, then rotated to history.1.jsonl). A write whose answer was ' +
    'lost is "unknown": `svc history finish <n>` sends it again with its recorded Idempotency-Key, exactly once.'
  static override examples = [
    '<%= config.bin %> history',
    '<%= config.bin %> history --unknown',
    '<%= config.bin %> history --failed --limit 5 --json',
  ]
  static override flags = {
    failed: Flags.boolean({description: 'only writes the Service refused or that failed', exclusive: ['unknown']}),
    unknown: Flags.boolean({description: 'only writes whose outcome is unknown and not finished yet'}),
    limit: Flags.integer({description: 'the last N records', min: 1, default: 20}),
  }

  async run() {
    const records = selectHistory(readHistory(this.ctx.env), this.flags)
    if (!this.out.json) await renderHistory(this.out, records)
    return records
  }
}
