import {Flags} from '@oclif/core'
import {BaseCommand} from '../lib/base-command.js'
import {describeProfile, verifyCredentials} from '../lib/login.js'
import {renderKeyValue} from '../lib/output/render.js'
import {SvcError} from '../lib/errors.js'
import {ExitCode} from '../lib/exit-codes.js'

export default class Whoami extends BaseCommand<typeof Whoami> {
  static override summary = 'Show the live profile (environment, base URL, token id) and check its credentials'
  static override examples = ['<%= config.bin %> whoami', '<%= config.bin %> whoami --profile prod --json', '<%= config.bin %> whoami --no-verify']
  static override flags = {
    verify: Flags.boolean({description: 'check the credentials with GET /config', default: true, allowNo: true}),
  }

  async run() {
    const p = this.ctx.profile
    const info = describeProfile(p, this.ctx.env)
    if (this.flags.verify) {
      if (!p.tokenId || !p.secret) {
        throw new SvcError({code: 'UNAUTHORIZED', exitCode: ExitCode.AUTH, message: `Profile "${p.name}" has no API credentials`, hint: p.environment === 'local' ? 'Start the local sandbox once (`svc sandbox serve --detach`).' : `Run \`svc login --profile ${p.name}\`.`})
      }
      await verifyCredentials({baseUrl: p.baseUrl, tokenId: p.tokenId, secret: p.secret, environment: p.environment}, this.config.version, this.ctx.remainingMs())
    }
    const result = {...info, verified: this.flags.verify}
    renderKeyValue(this.out, [
      ['profile', `${info.profile}${info.implicit ? ' (built-in)' : ''}`],
      ['environment', info.environment],
      ['baseUrl', info.baseUrl],
      ['tokenId', info.tokenId],
      ['credentials', info.credentials],
      ['verified', this.flags.verify ? 'yes' : 'not checked'],
    ])
    return result
  }
}
