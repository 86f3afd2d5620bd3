import {Flags} from '@oclif/core'
import {dryRunFlag, idFlag} from './flags.js'

/** Flags shared by `kyc documents upload` and `kyc documents replace`. */
export const documentFlags = {
  holder: idFlag(['Customer', 'BeneficialOwner'], {
    description: 'document holder: Customer:<id> or BeneficialOwner:<id>',
    required: true,
    name: 'documentHolder',
  }),
  type: Flags.string({
    description: 'PASSPORT, DRIVERS_LICENSE, NATIONAL_ID, CERTIFICATE_OF_INCORPORATION, PROOF_OF_ADDRESS ...',
    required: true,
  }),
  file: Flags.string({
    description: 'path of the PDF, JPEG or PNG (at most 10 MB; judged by content), or - to read it from stdin',
    required: true,
  }),
  side: Flags.string({description: "FRONT or BACK (driver's licence and national id)"}),
  number: Flags.string({description: 'document number (identity documents)'}),
  'issuing-authority': Flags.string({description: 'who issued it (identity documents)'}),
  country: Flags.string({description: 'issuing country, ISO 3166-1 alpha-2'}),
  'dry-run': dryRunFlag,
}
