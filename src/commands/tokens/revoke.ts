import {deleteToken} from '../../lib/api/tokens.js'
import {BaseCommand} from '../../lib/base-command.js'
import {dryRunFlag, idArg, yesFlag} from '../../lib/flags.js'

export default class TokensRevoke extends BaseCommand<typeof TokensRevoke> {
  static override summary = 'Revoke (delete) an API token: its credentials stop working at once'
  static override examples = ['<%= config.bin %> tokens revoke Token:019542f5-... --yes']
  static override args = {tokenId: idArg('Token')}
  static override flags = {yes: yesFlag, 'dry-run': dryRunFlag}

  async run() {
    const id = this.args.tokenId
    const req = deleteToken(id)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    this.ctx.banner(`revoke ${id}`)
    await this.ctx.confirm(`Revoke ${id}? Anything using it loses access`, {yes: this.flags.yes, irreversible: true})
    await this.ctx.client.call(req)
    this.out.success(`Revoked ${id}`)
    return {revoked: id}
  }
}
