import {revokeDelegatedKey} from '../../../lib/api/delegated-keys.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {dryRunFlag, idArg, yesFlag} from '../../../lib/flags.js'
import {revokeDelegated} from '../../../lib/workflows/delegated-keys.js'

export default class DelegatedKeysRevoke extends BaseCommand<typeof DelegatedKeysRevoke> {
  static override summary = 'Revoke an ACTIVE delegated key: it can never sign again'
  static override examples = ['<%= config.bin %> wallet delegated-keys revoke DelegatedKey:… --yes']
  static override args = {id: idArg('DelegatedKey')}
  static override flags = {yes: yesFlag, 'dry-run': dryRunFlag}

  async run() {
    const id = this.args.id
    const req = revokeDelegatedKey(id)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    this.ctx.banner(`revoke ${id}`)
    await this.ctx.confirm(`Revoke ${id}?`, {yes: this.flags.yes, irreversible: true})
    const result = await revokeDelegated(this.ctx, req)
    this.out.success(`Revoked ${id}`)
    return result
  }
}
