import {getProviderAccount} from '../../../lib/api/stablecoins.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {idArg} from '../../../lib/flags.js'
import {renderKeyValue} from '../../../lib/output/render.js'

export default class ProviderAccountsGet extends BaseCommand<typeof ProviderAccountsGet> {
  static override summary = 'Show a stablecoin provider account link'
  static override examples = ['<%= config.bin %> stablecoins provider-accounts get StablecoinProviderAccount:…']
  static override args = {id: idArg('StablecoinProviderAccount')}

  async run() {
    const a = await this.ctx.client.call(getProviderAccount(this.args.id))
    renderKeyValue(this.out, [
      ['id', a.id],
      ['provider', a.provider],
      ['providerAccountId', a.providerAccountId],
      ['environment', a.providerEnvironment],
      ['status', a.status],
    ])
    return a
  }
}
