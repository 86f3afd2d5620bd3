import {Args} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'
import {removeProfile} from '../../lib/config.js'
import {SvcError} from '../../lib/errors.js'
import {ExitCode} from '../../lib/exit-codes.js'

export default class ProfilesRemove extends BaseCommand<typeof ProfilesRemove> {
  static override summary = 'Delete a profile and its stored client secret'
  static override examples = ['<%= config.bin %> profiles remove old-sandbox']
  static override args = {name: Args.string({description: 'profile name', required: true})}

  async run() {
    const name = this.args.name
    if (!(await removeProfile(name, this.ctx.env))) {
      throw new SvcError({
        code: 'PROFILE_NOT_FOUND',
        exitCode: ExitCode.NOT_FOUND,
        message: `No profile named "${name}"`,
        hint: 'See `svc profiles list`.',
      })
    }
    this.out.success(`Removed profile ${name} and its stored secret`)
    return {profile: name, removed: true}
  }
}
