import {Flags} from '@oclif/core'
import {submitOwnershipSignature} from '../../../lib/api/accounts.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {usageError} from '../../../lib/errors.js'
import {dryRunFlag, idArg, readFlagFile} from '../../../lib/flags.js'
import {renderExternalAccount} from '../../../lib/output/accounts.js'

export default class AccountsExternalSubmitSignature extends BaseCommand<typeof AccountsExternalSubmitSignature> {
  static override summary = "Finish a WALLET_SIGNATURE challenge: submit the wallet's signature over messageToSign"
  static override description =
    'EVM: EIP-191 personal_sign hex (0x + 130 hex). Solana: base58 Ed25519 signature. Bitcoin: base64 ' +
    '(--scheme bip137|electrum). A wrong or late signature leaves the account UNVERIFIED: start a new ' +
    'challenge.'
  static override examples = [
    '<%= config.bin %> accounts external submit-signature ExternalAccount:… --signature 0x…',
    '<%= config.bin %> accounts external submit-signature ExternalAccount:… --signature-file sig.txt',
  ]
  static override args = {accountId: idArg('ExternalAccount')}
  static override flags = {
    signature: Flags.string({description: 'the signature', exclusive: ['signature-file']}),
    'signature-file': Flags.string({description: 'read the signature from this file'}),
    scheme: Flags.string({description: 'Bitcoin signature scheme', options: ['bip137', 'electrum']}),
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    const signature = (
      f.signature ?? (f['signature-file'] ? readFlagFile(f['signature-file'], '--signature-file') : '')
    ).trim()
    if (!signature) throw usageError('Give the signature: --signature <sig> or --signature-file <path>')
    const req = submitOwnershipSignature(this.args.accountId, signature, f.scheme as 'bip137' | 'electrum' | undefined)
    if (f['dry-run']) return this.dryRun(this.ctx.describe(req))
    const account = await this.ctx.client.call(req)
    this.out.success(`Ownership verified: ${account.id} is ${account.status}`)
    renderExternalAccount(this.out, account)
    return account
  }
}
