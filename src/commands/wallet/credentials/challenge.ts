import {authMethodSchema, walletOps} from '../../../lib/api/wallet.js'
import {BaseCommand, withTimeout} from '../../../lib/base-command.js'
import {SvcError} from '../../../lib/errors.js'
import {ExitCode} from '../../../lib/exit-codes.js'
import {dryRunFlag, idArg} from '../../../lib/flags.js'
import {engineFor} from '../../../lib/workflows/wallet/common.js'
import {renderKeyValue} from '../../../lib/output/render.js'

export default class WalletCredentialsChallenge extends BaseCommand<typeof WalletCredentialsChallenge> {
  static override summary =
    'Send a fresh OTP for an EMAIL_OTP or SMS_OTP credential (waits out still-processing and rate limits)'
  static override description =
    'Prints the credential and its otpEncryptionTargetBundle. `svc wallet login` calls this itself; use ' +
    'it to resend a code or for interop.'
  static override examples = ['<%= config.bin %> wallet credentials challenge AuthMethod:0b6f... --json']
  static override baseFlags = withTimeout('2m')
  static override args = {credentialId: idArg('AuthMethod')}
  static override flags = {'dry-run': dryRunFlag}

  async run() {
    const op = walletOps.challenge(this.args.credentialId)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(op))
    const res = await engineFor(this.ctx).run(op, () => {
      throw new SvcError({
        code: 'RESPONSE_INVALID',
        message: 'The OTP challenge unexpectedly asked for a signature',
        exitCode: ExitCode.FAILED,
      })
    })
    const method = this.ctx.client.parse(authMethodSchema, res.body, 'credential challenge')
    this.out.success(`A fresh code was sent to ${method.nickname ?? method.id}`)
    renderKeyValue(this.out, [
      ['credential', method.id],
      ['type', method.type],
      ['nickname', method.nickname],
      ['targetBundle', method.otpEncryptionTargetBundle ? 'received' : undefined],
    ])
    return method
  }
}
