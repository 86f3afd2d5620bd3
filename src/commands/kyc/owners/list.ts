import {listBeneficialOwners} from '../../../lib/api/kyc.js'
import {listPaged} from '../../../lib/api/paging.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {listOutputFlags} from '../../../lib/flags-output.js'
import {listView} from '../../../lib/output/table.js'
import {ownerColumns} from '../../../lib/output/kyc.js'
import {idArg, pagingFlags} from '../../../lib/flags.js'
import {renderOwners} from '../../../lib/output/kyc.js'

export default class KycOwnersList extends BaseCommand<typeof KycOwnersList> {
  static override summary = "List a business's beneficial owners, directors and officers"
  static override examples = [
    '<%= config.bin %> kyc owners list Customer:0b6f...',
    '<%= config.bin %> kyc owners list Customer:0b6f... --all --json',
  ]
  static override args = {customerId: idArg('Customer', 'the business (Customer:<id>)')}
  static override flags = {...pagingFlags, ...listOutputFlags}

  async run() {
    const view = listView(this.flags, ownerColumns, {
      what: 'beneficial owners',
      hint: 'Add one with `svc kyc owners add`.',
    })
    const list = await listPaged(this.ctx.client, listBeneficialOwners(this.args.customerId), this.flags)
    await renderOwners(this.out, list.data, view)
    if (list.hasMore) this.out.info(this.out.dim(`More results: --cursor ${list.nextCursor} (or --all).`))
    return list
  }
}
