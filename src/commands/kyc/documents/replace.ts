import {BaseCommand} from '../../../lib/base-command.js'
import {documentFlags} from '../../../lib/flags-kyc.js'
import {LOOKED_UP_DOCUMENT, prepareUpload, sendPrepared, uploadRequest} from '../../../lib/workflows/kyc/documents.js'
import {renderDocuments} from '../../../lib/output/kyc.js'

export default class KycDocumentsReplace extends BaseCommand<typeof KycDocumentsReplace> {
  static override summary = 'Replace the document of a type (and side) a holder already has; same as `upload --replace`'
  static override examples = [
    '<%= config.bin %> kyc documents replace --holder Customer:0b6f... --type PASSPORT --file sharper.jpg --number X1234567 --issuing-authority "US Department of State" --country US',
  ]
  static override flags = documentFlags

  async run() {
    const prepared = prepareUpload(this.flags)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(uploadRequest(prepared, LOOKED_UP_DOCUMENT)))
    const {document: doc} = await sendPrepared(this.ctx.client, prepared, true)
    this.out.success(
      `Replaced ${doc.id} (${doc.documentType}${doc.side ? ` ${doc.side}` : ''}) for ${doc.documentHolder}`,
    )
    await renderDocuments(this.out, [doc])
    return doc
  }
}
