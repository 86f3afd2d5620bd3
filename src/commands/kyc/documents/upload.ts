import {Flags} from '@oclif/core'
import {sendDocument} from '../../../lib/api/kyc.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {describeRequest} from '../../../lib/dry-run.js'
import {dryRunFlag, idFlag} from '../../../lib/flags.js'
import {existingDocument, prepareUpload} from '../../../lib/flows/kyc-documents.js'
import {renderDocuments} from '../../../lib/output/kyc.js'

export default class KycDocumentsUpload extends BaseCommand<typeof KycDocumentsUpload> {
  static override summary = 'Upload an identity or business document (PDF, JPEG or PNG, at most 10 MB)'
  static override description = 'The file type is judged from its content, not its name. Identity documents need --number and --issuing-authority; a DRIVERS_LICENSE or NATIONAL_ID needs a FRONT and a BACK upload (--side). --replace replaces the existing document of that type (and side).'
  static override examples = [
    '<%= config.bin %> kyc documents upload --holder Customer:0b6f... --type PASSPORT --file passport.jpg --number X1234567 --issuing-authority "US Department of State" --country US',
    '<%= config.bin %> kyc documents upload --holder Customer:0b6f... --type DRIVERS_LICENSE --side BACK --file back.png --number D123 --issuing-authority "CA DMV" --country US',
    '<%= config.bin %> kyc documents upload --holder Customer:0b6f... --type CERTIFICATE_OF_INCORPORATION --file cert.pdf --country US --replace',
  ]
  static override flags = {
    holder: idFlag(['Customer', 'BeneficialOwner'], {description: 'document holder: Customer:<id> or BeneficialOwner:<id>', required: true, name: 'documentHolder'}),
    type: Flags.string({description: 'PASSPORT, DRIVERS_LICENSE, NATIONAL_ID, CERTIFICATE_OF_INCORPORATION, PROOF_OF_ADDRESS ...', required: true}),
    file: Flags.string({description: 'path of the PDF, JPEG or PNG', required: true}),
    side: Flags.string({description: 'FRONT or BACK (driver\'s licence and national id)'}),
    number: Flags.string({description: 'document number (identity documents)'}),
    'issuing-authority': Flags.string({description: 'who issued it (identity documents)'}),
    country: Flags.string({description: 'issuing country, ISO 3166-1 alpha-2'}),
    replace: Flags.boolean({description: 'replace the existing document of this type (PUT) instead of adding one'}),
    'dry-run': dryRunFlag,
  }

  async run() {
    const {fields, file} = prepareUpload(this.flags)
    if (this.flags['dry-run']) {
      const body = {...fields, file: `${file.name} (${file.type}, ${file.bytes.length} bytes)`}
      return this.dryRun(describeRequest(undefined, this.ctx.profile.baseUrl, {method: this.flags.replace ? 'PUT' : 'POST', path: ['documents'], body}))
    }
    const replaceId = this.flags.replace ? (await existingDocument(this.ctx.client, fields)).id : undefined
    const {documentHolder, ...meta} = fields
    const doc = await sendDocument(this.ctx.client, replaceId ? meta : fields, file, replaceId)
    this.out.success(`${replaceId ? 'Replaced' : 'Uploaded'} ${doc.id} (${doc.documentType}${doc.side ? ` ${doc.side}` : ''}) for ${documentHolder}`)
    await renderDocuments(this.out, [doc])
    return doc
  }
}
