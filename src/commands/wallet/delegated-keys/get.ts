import {getDelegatedKey} from '../../../lib/api/delegated-keys.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {idArg} from '../../../lib/flags.js'
import {renderDelegatedKey} from '../../../lib/output/delegated-key.js'

export default class DelegatedKeysGet extends BaseCommand<typeof DelegatedKeysGet> {
  static override summary = 'Show a delegated key'
  static override examples = ['<%= config.bin %> wallet delegated-keys get DelegatedKey:…']
  static override args = {id: idArg('DelegatedKey')}

  async run() {
    const key = await this.ctx.client.call(getDelegatedKey(this.args.id))
    renderDelegatedKey(this.out, key)
    return key
  }
}
