import {Flags} from '@oclif/core'
import {BaseCommand} from '../../../lib/base-command.js'
import {documentFlags} from '../../../lib/flags-kyc.js'
import {LOOKED_UP_DOCUMENT, prepareUpload, sendPrepared, uploadRequest} from '../../../lib/workflows/kyc/documents.js'
import {renderDocuments} from '../../../lib/output/kyc.js'

export default class KycDocumentsUpload extends BaseCommand<typeof KycDocumentsUpload> {
  static override summary = 'Upload an identity or business document (PDF, JPEG or PNG, at most 10 MB)'
  static override description =
    'The file type is judged from its content, not its name. Identity documents need --number and ' +
    '--issuing-authority; a DRIVERS_LICENSE or NATIONAL_ID needs a FRONT and a BACK upload (--side). ' +
    '--replace replaces the existing document of that type and side.'
  static override examples = [
    '<%= config.bin %> kyc documents upload --holder Customer:0b6f... --type PASSPORT --file passport.jpg --number X1234567 --issuing-authority "US Department of State" --country US',
    '<%= config.bin %> kyc documents upload --holder Customer:0b6f... --type DRIVERS_LICENSE --side BACK --file back.png --number D123 --issuing-authority "CA DMV" --country US',
    '<%= config.bin %> kyc documents upload --holder Customer:0b6f... --type CERTIFICATE_OF_INCORPORATION --file cert.pdf --country US --replace',
  ]
  static override flags = {
    ...documentFlags,
    replace: Flags.boolean({description: 'replace the existing document of this type (PUT) instead of adding one'}),
  }

  async run() {
    const prepared = prepareUpload(this.flags)
    const replace = this.flags.replace
    if (this.flags['dry-run'])
      return this.dryRun(this.ctx.describe(uploadRequest(prepared, replace ? LOOKED_UP_DOCUMENT : undefined)))
    const {document: doc, replaced} = await sendPrepared(this.ctx.client, prepared, replace)
    this.out.success(
      `${replaced ? 'Replaced' : 'Uploaded'} ${doc.id} (${doc.documentType}${doc.side ? ` ${doc.side}` : ''}) for ${doc.documentHolder}`,
    )
    await renderDocuments(this.out, [doc])
    return doc
  }
}
