import {Flags} from '@oclif/core'
import {completeLogin} from '../../../lib/api/sca.js'
import {BaseCommand} from '../../../lib/base-command.js'
import {dryRunFlag, readJsonInput} from '../../../lib/flags.js'
import {codeFlag, customerArg, ipFlag, readScaCode} from '../../../lib/workflows/sca/flags.js'
import {SCA_FACTORS, scaLoginCompleteRequest} from '../../../lib/schemas/sca.js'
import {checkWith, compact} from '../../../lib/validate.js'

export default class ScaLoginComplete extends BaseCommand<typeof ScaLoginComplete> {
  static override summary =
    'Complete an SCA login with the code (or passkey assertion): opens a 180-day SCA session (sessionExpiresAt)'
  static override examples = [
    '<%= config.bin %> sca login complete Customer:… --factor SMS_OTP --challenge-id ScaChallenge:… --code -',
  ]
  static override args = customerArg
  static override flags = {
    factor: Flags.string({description: 'factor of the started login', options: [...SCA_FACTORS], default: 'SMS_OTP'}),
    'challenge-id': Flags.string({description: 'SMS_OTP: the challengeId from `sca login start`'}),
    code: codeFlag,
    assertion: Flags.string({description: 'PASSKEY: the WebAuthn assertion JSON (inline, @file or -)'}),
    origin: Flags.string({description: 'PASSKEY: the origin the assertion was made against'}),
    ip: ipFlag,
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    const passkey = f.factor === 'PASSKEY'
    const code = passkey ? undefined : readScaCode(f.code)
    const body = checkWith(
      scaLoginCompleteRequest,
      compact({
        factor: f.factor,
        endUserIpAddress: f.ip,
        challengeId: f['challenge-id'],
        code: code?.reveal(),
        passkeyAssertion: passkey && f.assertion ? readJsonInput(f.assertion, '--assertion') : undefined,
        origin: f.origin,
      }),
    )
    const req = completeLogin(this.args.customerId, body)
    if (f['dry-run']) return this.dryRun(this.ctx.describe(req))
    const session = await this.ctx.client.call(req)
    this.out.success(`SCA session ${session.status} for ${this.args.customerId} until ${session.sessionExpiresAt}`)
    return session
  }
}
