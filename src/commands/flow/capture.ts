import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'
import {yesFlag} from '../../lib/flags.js'

export default class FlowCapture extends BaseCommand<typeof FlowCapture> {
  static override summary =
    "Write a flow that rebuilds one customer's situation from a remote environment in a sandbox, personal data replaced by fakes"
  static override description =
    'Reads (GETs only) the customer through --from-profile: KYC/KYB status and what each submission lacked, owners, documents (kind only), internal accounts ' +
    'with balances, external accounts by kind, recent payouts with their statuses and failure reasons, embedded wallets. The flow rebuilds it with the ' +
    "sandbox's controls (name and account-number suffixes, funding), so statuses and failure reasons come out the same. Names, e-mails, phones, " +
    'addresses, birth dates, tax and document numbers, account numbers (their outcome digits kept) and platform ids are replaced by fakes, the same ' +
    'original always by the same fake; the header lists the kinds replaced and what could not be reproduced. A production profile is refused without --yes. ' +
    'See docs/flows.md.'
  static override examples = [
    '<%= config.bin %> flow capture Customer:… --from-profile staging --out ticket-4711.yaml',
    '<%= config.bin %> flow capture Customer:… --from-profile prod --yes --out ticket-4711.yaml',
    '<%= config.bin %> flow capture Customer:… --from-profile staging > situation.yaml',
  ]
  static override args = {
    customer: Args.string({description: 'the customer to capture (Customer:<id>)', required: true}),
  }
  static override flags = {
    'from-profile': Flags.string({
      description:
        'saved profile of the environment to read from (GETs only; its own URL and credentials, not SVC_* overrides)',
      required: true,
    }),
    out: Flags.string({description: 'write the flow to this file (default: stdout)'}),
    force: Flags.boolean({description: 'overwrite the --out file if it exists'}),
    seed: Flags.string({description: 'seed of the fakes, for a reproducible file (default: random per capture)'}),
    yes: yesFlag,
  }

  async run() {
    const {captureFlow} = await import('../../lib/scenario/capture/command.js')
    const f = this.flags
    const {result, yaml} = await captureFlow(
      this.ctx,
      {
        customerId: this.args.customer,
        fromProfile: f['from-profile'],
        out: f.out,
        force: f.force,
        yes: f.yes,
        seed: f.seed,
      },
      this.jsonEnabled(),
    )
    if (!result.file) this.out.print(yaml.trimEnd())
    const gaps = result.notReproduced.length
    this.out.success(
      `Captured ${result.customerId} from ${result.source.profile}: ${result.steps} steps${result.file ? ` in ${result.file}` : ''}; replaced ${result.replaced.join(', ') || 'nothing'}`,
    )
    if (gaps)
      this.out.warn(
        `${gaps} state${gaps === 1 ? '' : 's'} not reproduced (listed in the file's header): ${result.notReproduced.join('; ')}`,
      )
    return result
  }
}
