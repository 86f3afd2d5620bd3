import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../../lib/base-command.js'

export default class FlowInit extends BaseCommand<typeof FlowInit> {
  static override summary = 'Copy the example flows (onboarding, KYB, fund-quote-execute, cards, wallets) into a folder'
  static override description =
    'Writes the flows svc ships, with the sample documents their KYC steps upload, so a first flow starts from a working one. ' +
    'Run one with `svc flow run <dir>/onboarding-individual.yaml --local`. See docs/flows.md.'
  static override examples = ['<%= config.bin %> flow init my-flows', '<%= config.bin %> flow init ci/flows --force']
  static override args = {
    dir: Args.string({description: 'folder to write into (created if missing)', default: 'flows'}),
  }
  static override flags = {
    force: Flags.boolean({description: 'overwrite files that already exist there'}),
  }

  async run() {
    const {copyExampleFlows} = await import('../../lib/scenario/init/copy-examples.js')
    const result = copyExampleFlows(this.config.root, this.args.dir, this.flags.force)
    for (const f of result.files) this.out.print(f)
    this.out.success(
      `${result.files.length} files in ${result.dir}; try: svc flow run ${this.args.dir}/onboarding-individual.yaml --local`,
    )
    return result
  }
}
