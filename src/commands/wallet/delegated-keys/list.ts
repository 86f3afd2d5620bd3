import {listDelegatedKeys} from '../../../lib/api/delegated-keys.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {idFlag} from '../../../lib/flags.js'
import {renderDelegatedKeys} from '../../../lib/output/delegated-key.js'
import {delegatedKeyListQuery} from '../../../lib/schemas/delegated-keys.js'
import {checkWith, compact} from '../../../lib/validate.js'

export default class DelegatedKeysList extends BaseCommand<typeof DelegatedKeysList> {
  static override summary =
    'List delegated keys of a wallet and/or a card funding source (PENDING and REVOKED included)'
  static override examples = ['<%= config.bin %> wallet delegated-keys list --account InternalAccount:…']
  static override flags = {
    account: idFlag('InternalAccount', {description: 'the embedded wallet', name: 'accountId'}),
    'funding-source': idFlag('CardFundingSource', {description: 'the card funding source', name: 'fundingSourceId'}),
  }

  async run() {
    const query = checkWith(
      delegatedKeyListQuery,
      compact({accountId: this.flags.account, fundingSourceId: this.flags['funding-source']}),
    )
    const data = (await this.ctx.client.call(listDelegatedKeys(query))).data
    await renderDelegatedKeys(this.out, data)
    return {data}
  }
}
