import {getToken} from '../../lib/api/tokens.js'
import {BaseCommand} from '../../lib/base-command.js'
import {idArg} from '../../lib/flags.js'
import {renderKeyValue} from '../../lib/output/render.js'

export default class TokensGet extends BaseCommand<typeof TokensGet> {
  static override summary = 'Show an API token (its secret is never shown again)'
  static override examples = ['<%= config.bin %> tokens get Token:019542f5-...']
  static override args = {tokenId: idArg('Token')}

  async run() {
    const t = await this.ctx.client.call(getToken(this.args.tokenId))
    renderKeyValue(this.out, [
      ['id', t.id],
      ['name', t.name],
      ['clientId', t.clientId],
      ['permissions', t.permissions.join(', ')],
      ['created', t.createdAt],
    ])
    return t
  }
}
