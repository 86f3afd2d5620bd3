import {Args, Flags} from '@oclif/core'
import {getImportJob} from '../../lib/api/bulk-import.js'
import {BaseCommand, withTimeout} from '../../lib/base-command.js'
import {checkId} from '../../lib/flags.js'
import {waitForImport} from '../../lib/workflows/customer/import.js'
import {renderImportJob} from '../../lib/output/bulk-import.js'

export default class CustomersImportStatus extends BaseCommand<typeof CustomersImportStatus> {
  static override summary = 'Show a bulk customer import job: progress, and each refused row with its field errors'
  static override examples = ['<%= config.bin %> customers import-status Job:019542f5-... --wait']
  static override args = {
    jobId: Args.string({
      description: 'the job id from `svc customers import` (Job:<id>)',
      required: true,
      parse: async (v) => checkId(v, ['Job'], 'jobId'),
    }),
  }
  static override flags = {
    wait: Flags.boolean({description: 'follow the job until it completes or fails (progress bar on a terminal)'}),
  }
  static override baseFlags = withTimeout('10m')

  async run() {
    const job = this.flags.wait
      ? await waitForImport(this.ctx, this.args.jobId)
      : await this.ctx.client.call(getImportJob(this.args.jobId))
    await renderImportJob(this.out, job)
    return job
  }
}
