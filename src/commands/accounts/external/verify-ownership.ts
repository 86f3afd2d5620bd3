import {writeFileSync} from 'node:fs'
import {Flags} from '@oclif/core'
import {createOwnershipChallenge} from '../../../lib/api/accounts.js'
import {BaseCommand, withTimeout} from '../../../lib/base-command.js'
import {usageError} from '../../../lib/errors.js'
import {dryRunFlag, idArg} from '../../../lib/flags.js'
import {waitForOwnership} from '../../../lib/workflows/ownership.js'
import {renderChallenge, renderExternalAccount} from '../../../lib/output/accounts.js'

export default class AccountsExternalVerifyOwnership extends BaseCommand<typeof AccountsExternalVerifyOwnership> {
  static override summary =
    'Start an ownership challenge for a self-custody wallet: a message to sign, or a liveness link'
  static override description =
    'Each call abandons any challenge in flight and issues a new one (a signature or link from an earlier ' +
    'challenge stops counting).'
  static override examples = [
    '<%= config.bin %> accounts external verify-ownership ExternalAccount:… --method WALLET_SIGNATURE --message-out msg.txt',
    '<%= config.bin %> accounts external verify-ownership ExternalAccount:… --method LIVENESS --wait',
  ]
  static override baseFlags = withTimeout('15m')
  static override args = {accountId: idArg('ExternalAccount')}
  static override flags = {
    method: Flags.string({
      description: 'how to prove ownership',
      options: ['WALLET_SIGNATURE', 'LIVENESS'],
      required: true,
    }),
    'message-out': Flags.string({description: 'WALLET_SIGNATURE: write messageToSign to this file, byte for byte'}),
    wait: Flags.boolean({description: 'LIVENESS: wait until the check finishes (EXTERNAL_ACCOUNT.STATUS_UPDATED)'}),
    'dry-run': dryRunFlag,
  }

  async run() {
    const f = this.flags
    if (f.wait && f.method !== 'LIVENESS')
      throw usageError('--wait follows a LIVENESS check; a WALLET_SIGNATURE finishes with `submit-signature`')
    if (f['message-out'] && f.method !== 'WALLET_SIGNATURE')
      throw usageError('--message-out applies to WALLET_SIGNATURE')
    const id = this.args.accountId
    // A real call would abandon the challenge in flight: a dry run must not.
    const req = createOwnershipChallenge(id, f.method as 'WALLET_SIGNATURE' | 'LIVENESS')
    if (f['dry-run']) return this.dryRun(this.ctx.describe(req))
    const challenge = await this.ctx.client.call(req)
    if (f['message-out']) {
      writeFileSync(f['message-out'], challenge.messageToSign ?? '', {encoding: 'utf8'})
      this.out.info(
        `messageToSign written to ${f['message-out']} (${Buffer.byteLength(challenge.messageToSign ?? '')} bytes)`,
      )
    }
    renderChallenge(this.out, challenge, id)
    if (!f.wait) return challenge
    const account = await waitForOwnership(this.ctx, id)
    renderExternalAccount(this.out, account)
    return account
  }
}
