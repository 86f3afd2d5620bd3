import {Args, Flags} from '@oclif/core'
import {uploadCustomerCsv} from '../../lib/api/bulk-import.js'
import {BaseCommand, withTimeout} from '../../lib/base-command.js'
import {dryRunFlag} from '../../lib/flags.js'
import {readImportFile, waitForImport} from '../../lib/workflows/customer/import.js'
import {importOutcome, renderImportJob} from '../../lib/output/bulk-import.js'

export default class CustomersImport extends BaseCommand<typeof CustomersImport> {
  static override summary = 'Create customers in bulk from a CSV file (a background job; --wait to follow it)'
  static override description = [
    'Columns: platformCustomerId and customerType are required; umaAddress, fullName, birthDate, addressLine1, addressLine2, city, state, postalCode, country, email, ' +
      'businessLegalName, businessRegistrationNumber, businessTaxId, businessIncorporatedOn, currencies ' +
      '(space or ; separated), platformAccountId, description.',
    'The whole file is checked before sending (exit 2). Each row is then judged like `svc customers create`: the job lists every refused row with the columns to fix. ' +
      'A platformCustomerId that already belongs to a customer is refused, so re-running a file creates nothing twice.',
    'With --wait: a progress bar on a terminal (stderr), then the job; exit 0 when it completed (even ' +
      'with refused rows), 1 when no row was created, 8 at --timeout.',
  ].join('\n\n')
  static override examples = [
    '<%= config.bin %> customers import customers.csv --wait',
    '<%= config.bin %> customers import customers.csv --json   # {jobId, status}; follow with customers import-status',
  ]
  static override args = {
    file: Args.string({
      description: 'the CSV file (UTF-8, header row first, at most 10 MB and 10,000 rows)',
      required: true,
    }),
  }
  static override flags = {
    wait: Flags.boolean({description: 'follow the job until it completes or fails (--timeout bounds the wait)'}),
    'dry-run': dryRunFlag,
  }
  static override baseFlags = withTimeout('10m')

  async run() {
    const file = readImportFile(this.args.file)
    const req = uploadCustomerCsv(file)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    this.ctx.banner(`import ${file.rows} customer row(s)`)
    const accepted = await this.ctx.client.call(req)
    this.out.success(`Accepted ${file.rows} row(s) as ${accepted.jobId} (${accepted.status})`)
    if (!this.flags.wait) {
      this.out.print(accepted.jobId)
      this.out.info(`Follow it with \`svc customers import-status ${accepted.jobId} --wait\`.`)
      return accepted
    }
    const job = await waitForImport(this.ctx, accepted.jobId)
    await renderImportJob(this.out, job)
    importOutcome(job)
    return job
  }
}
