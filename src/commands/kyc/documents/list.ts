import {listDocuments} from '../../../lib/api/kyc.js'
import {listPaged} from '../../../lib/api/paging.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {listOutputFlags} from '../../../lib/flags-output.js'
import {listView} from '../../../lib/output/table.js'
import {documentColumns} from '../../../lib/output/kyc.js'
import {idFlag, pagingFlags} from '../../../lib/flags.js'
import {renderDocuments} from '../../../lib/output/kyc.js'

export default class KycDocumentsList extends BaseCommand<typeof KycDocumentsList> {
  static override summary = 'List the documents uploaded for a customer or a beneficial owner'
  static override examples = [
    '<%= config.bin %> kyc documents list --holder Customer:0b6f...',
    '<%= config.bin %> kyc documents list --holder BeneficialOwner:9a1c... --json',
  ]
  static override flags = {
    holder: idFlag(['Customer', 'BeneficialOwner'], {
      description: 'document holder: Customer:<id> or BeneficialOwner:<id>',
      required: true,
      name: 'documentHolder',
    }),
    ...pagingFlags,
    ...listOutputFlags,
  }

  async run() {
    const view = listView(this.flags, documentColumns, {
      what: 'documents',
      hint: 'Upload one with `svc kyc documents upload`.',
    })
    const list = await listPaged(this.ctx.client, listDocuments(this.flags.holder!), this.flags)
    await renderDocuments(this.out, list.data, view)
    if (list.hasMore) this.out.info(this.out.dim(`More results: --cursor ${list.nextCursor} (or --all).`))
    return list
  }
}
