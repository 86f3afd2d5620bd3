import {Flags} from '@oclif/core'
import {createKycLink} from '../../lib/api/kyc.js'
import {BaseCommand} from '../../lib/base-command.js'
import {ApiError, SvcError} from '../../lib/errors.js'
import {ExitCode} from '../../lib/exit-codes.js'
import {dryRunFlag, idArg, idempotencyKeyFlag} from '../../lib/flags.js'
import {relativeTime} from '../../lib/output/format.js'
import {renderKeyValue} from '../../lib/output/render.js'
import {kycLinkRequest} from '../../lib/schemas/kyc.js'
import {checkWith, compact} from '../../lib/validate.js'

export default class KycLink extends BaseCommand<typeof KycLink> {
  static override summary = 'Issue a hosted KYC/KYB link for the customer to complete verification'
  static override description =
    'Each call issues a fresh single-use link; earlier links stay usable until used or expired. Every ' +
    'contact channel the provider verifies must be VERIFIED first.'
  static override examples = [
    '<%= config.bin %> kyc link Customer:0b6f... --redirect-uri https://app.example.com/onboarded',
  ]
  static override args = {customerId: idArg('Customer')}
  static override flags = {
    'redirect-uri': Flags.string({
      description: 'where the hosted flow sends the end user when done (http or https URL)',
    }),
    'idempotency-key': idempotencyKeyFlag,
    'dry-run': dryRunFlag,
  }

  async run() {
    const id = this.args.customerId
    const body = checkWith(kycLinkRequest, compact({redirectUri: this.flags['redirect-uri']}))
    const req = createKycLink(id, body)
    if (this.flags['dry-run']) return this.dryRun(this.ctx.describe(req))
    const link = await this.ctx.client.call(req).catch((e) => {
      if (!(e instanceof ApiError) || e.status !== 409) throw e
      const pending = Array.isArray(e.details?.pending) ? (e.details.pending as string[]) : ['email', 'phone']
      throw new SvcError({
        code: e.code,
        status: 409,
        exitCode: ExitCode.CONFLICT,
        details: e.details,
        message: `No link until every contact channel of ${id} is VERIFIED (pending: ${pending.join(', ')})`,
        hint:
          pending
            .map((ch) => `svc kyc verify-${ch} ${id} && svc kyc confirm-${ch} ${id} --code <code>`)
            .join('; then ') + '; then run this again.',
      })
    })
    renderKeyValue(this.out, [
      ['kycUrl', link.kycUrl],
      ['expiresAt', `${link.expiresAt} (${relativeTime(link.expiresAt)})`],
      ['provider', link.provider],
    ])
    this.out.info(
      this.out.dim('Single use: each call issues a fresh link; earlier links stay valid until used or expired.'),
    )
    return link
  }
}
