import {BaseCommand} from '../lib/base-command.js'
import {forgetSecret, readConfig} from '../lib/config.js'

export default class Logout extends BaseCommand<typeof Logout> {
  static override summary = 'Forget the stored client secret of the active profile (or --profile); the profile stays'
  static override examples = ['<%= config.bin %> logout', '<%= config.bin %> logout --profile prod']

  async run() {
    const env = this.ctx.env
    const name = this.flags.profile ?? readConfig(env).activeProfile ?? 'local'
    const removed = forgetSecret(name, env)
    if (removed) this.out.success(`Logged out of profile ${name}: its client secret was deleted`)
    else this.out.info(`Profile ${name} had no stored client secret`)
    if (env.SVC_CLIENT_SECRET) this.out.warn('SVC_CLIENT_SECRET is still set in this environment')
    return {profile: name, loggedOut: removed}
  }
}
