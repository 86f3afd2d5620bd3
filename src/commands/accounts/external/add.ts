import {createExternalAccount} from '../../../lib/api/accounts.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {ApiError} from '../../../lib/errors.js'
import {dryRunFlag} from '../../../lib/flags.js'
import {externalAccountBody, externalAccountFlags} from '../../../lib/workflows/external-account-input.js'
import {renderExternalAccount} from '../../../lib/output/accounts.js'
import {externalAccountSchema} from '../../../lib/schemas/accounts.js'

export default class AccountsExternalAdd extends BaseCommand<typeof AccountsExternalAdd> {
  static override summary =
    'Register a beneficiary or wallet (CLABE, US bank with wire details, IBAN, PIX, GBP, wallets); formats checked locally'
  static override examples = [
    '<%= config.bin %> accounts external add --customer Customer:… --type CLABE --clabe 002010077777777771 --beneficiary-name "Maria Garcia"',
    '<%= config.bin %> accounts external add --customer Customer:… --type USD_ACCOUNT --account-number 123456789 --routing-number 021000021 --bank-name "Chase" --beneficiary-name "Ada Lovelace"',
    '<%= config.bin %> accounts external add --customer Customer:… --type ETHEREUM_WALLET --currency USDC --address 0x… --ownership FIRST_PARTY',
    '<%= config.bin %> accounts external add --customer Customer:… --type BRL_ACCOUNT --pix-key 52998224725 --pix-key-type CPF --tax-id 52998224725 --beneficiary-name "João Silva"',
  ]
  static override flags = {...externalAccountFlags, 'dry-run': dryRunFlag}

  async run() {
    const body = externalAccountBody(this.flags, {warn: (m) => this.out.warn(m)})
    const req = createExternalAccount(body)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    try {
      const account = await this.ctx.client.call(req)
      this.out.success(`Registered ${account.id} (${account.status})`)
      renderExternalAccount(this.out, account)
      return account
    } catch (e) {
      const existing = e instanceof ApiError ? e.details?.existingAccount : undefined
      if (existing && e instanceof ApiError && !this.jsonEnabled()) {
        this.out.info(
          e.code === 'DUPLICATE_EXTERNAL_ACCOUNT'
            ? 'This account is registered already:'
            : 'The same account is already registered and still under validation:',
        )
        renderExternalAccount(this.out, externalAccountSchema.parse(existing))
      }
      throw e
    }
  }
}
