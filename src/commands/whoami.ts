import {Flags} from '@oclif/core'
import {BaseCommand} from '../lib/base-command.js'
import {describeProfile, verifyCredentials} from '../lib/login.js'
import {renderKeyValue} from '../lib/output/render.js'
import {missingCredentials} from '../lib/context.js'

export default class Whoami extends BaseCommand<typeof Whoami> {
  static override summary = 'Show the live profile (environment, base URL, token id) and check its credentials'
  static override examples = [
    '<%= config.bin %> whoami',
    '<%= config.bin %> whoami --profile prod --json',
    '<%= config.bin %> whoami --no-verify',
  ]
  static override flags = {
    verify: Flags.boolean({description: 'check the credentials with GET /config', default: true, allowNo: true}),
  }

  async run() {
    const p = this.ctx.profile
    const info = describeProfile(p, this.ctx.env)
    if (this.flags.verify) {
      if (!p.tokenId || !p.secret) throw missingCredentials(p, this.ctx.env)
      await verifyCredentials(
        {baseUrl: p.baseUrl, tokenId: p.tokenId, secret: p.secret, environment: p.environment},
        this.config.version,
        this.ctx.remainingMs(),
        {network: this.ctx.network(p), trace: this.ctx.debug ? (line) => this.out.info(this.out.dim(line)) : undefined},
      )
    }
    const result = {...info, verified: this.flags.verify}
    renderKeyValue(this.out, [
      ['profile', `${info.profile}${info.implicit ? ' (built-in)' : ''}`],
      ['environment', info.environment],
      [
        'baseUrl',
        `${info.baseUrl}${info.baseUrlFrom === 'profile' ? '' : ` (from ${info.baseUrlFrom === 'flag' ? '--base-url' : info.baseUrlFrom})`}`,
      ],
      ['tokenId', info.tokenId],
      ['credentials', info.credentials],
      ['verified', this.flags.verify ? 'yes' : 'not checked'],
    ])
    return result
  }
}
