import {deleteToken} from '../../lib/api/tokens.js'
import {BaseCommand} from '../../lib/base-command.js'
import {describeRequest} from '../../lib/dry-run.js'
import {dryRunFlag, idArg, yesFlag} from '../../lib/flags.js'

export default class TokensRevoke extends BaseCommand<typeof TokensRevoke> {
  static override summary = 'Revoke (delete) an API token: its credentials stop working at once'
  static override examples = ['<%= config.bin %> tokens revoke Token:019542f5-... --yes']
  static override args = {tokenId: idArg('Token')}
  static override flags = {yes: yesFlag, 'dry-run': dryRunFlag}

  async run() {
    const id = this.args.tokenId
    if (this.flags['dry-run']) return this.dryRun(describeRequest(this.ctx.client, this.ctx.profile.baseUrl, {method: 'DELETE', path: ['tokens', id]}))
    this.ctx.banner(`revoke ${id}`)
    await this.ctx.confirm(`Revoke ${id}? Anything using it loses access`, {yes: this.flags.yes})
    await deleteToken(this.ctx.client, id)
    this.out.success(`Revoked ${id}`)
    return {revoked: id}
  }
}
