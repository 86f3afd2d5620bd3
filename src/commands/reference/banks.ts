import {Flags} from '@oclif/core'
import {listInstitutions} from '../../lib/api/reference.js'
import {BaseCommand} from '../../lib/base-command.js'
import {renderTable} from '../../lib/output/render.js'
import {discoveriesQuery} from '../../lib/schemas/reference.js'
import {checkWith, compact} from '../../lib/validate.js'

export default class ReferenceBanks extends BaseCommand<typeof ReferenceBanks> {
  static override summary =
    'Receiving banks and payment providers per corridor (GET /discoveries): the bankName for external accounts'
  static override examples = [
    '<%= config.bin %> reference banks --country PH --currency PHP',
    '<%= config.bin %> reference banks --json',
  ]
  static override flags = {
    country: Flags.string({description: 'ISO 3166-1 alpha-2 country (PH, MX ...)'}),
    currency: Flags.string({description: 'ISO 4217 currency (PHP, MXN ...)'}),
  }

  async run() {
    const query = checkWith(
      discoveriesQuery,
      compact({country: this.flags.country?.toUpperCase(), currency: this.flags.currency?.toUpperCase()}),
    )
    const banks = (await this.ctx.client.call(listInstitutions(query))).data ?? []
    await renderTable(
      this.out,
      ['BANK NAME', 'DISPLAY NAME', 'COUNTRY', 'CURRENCY'],
      banks.map((b) => [b.bankName, b.displayName, b.country, b.currency]),
    )
    return banks
  }
}
