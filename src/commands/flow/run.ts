import {Args, Flags} from '@oclif/core'
import {BaseCommand, withTimeout} from '../../lib/base-command.js'
import {yesFlag} from '../../lib/flags.js'
import type {StartThrowawaySandbox} from '../../lib/scenario/run/local.js'

export default class FlowRun extends BaseCommand<typeof FlowRun> {
  /** The flow stops its own steps and throwaway sandbox on Ctrl-C and reports them (exit 130). */
  static override handlesInterrupt = true
  static override summary =
    'Run a scenario file of named steps (svc commands, API calls, webhook waits) with expectations'
  static override description =
    'The file is checked before anything runs (every bad step named with its line, exit 2). Steps run in order; the first that does not hold stops the flow ' +
    'and shows what was expected and what came back (exit 1). --local runs against a throwaway sandbox started for the run and removed after. ' +
    '--json prints the result document; --junit writes a JUnit XML report. See docs/flows.md for the file format.'
  static override examples = [
    '<%= config.bin %> flow run flows/onboarding-individual.yaml --local',
    '<%= config.bin %> flow run flows/fund-quote-execute.yaml --local --junit /tmp/flow-report.xml',
    '<%= config.bin %> flow run my-flow.yaml --profile staging --json',
  ]
  static override baseFlags = withTimeout('30m')
  static override args = {
    file: Args.string({description: 'the flow file (YAML)', required: true}),
  }
  static override flags = {
    local: Flags.boolean({
      description:
        'run against a throwaway local sandbox (ephemeral port, temporary data dir), stopped and removed after',
    }),
    junit: Flags.string({description: 'write a JUnit XML report to this file (also when a step fails)'}),
    yes: yesFlag,
  }

  async run() {
    const {runFlowCommand} = await import('../../lib/scenario/run/command.js')
    // The sandbox loads only for --local, from its own entry module (src/lib does not import it).
    const startSandbox: StartThrowawaySandbox = async (settings) =>
      (await import('../../emulator/entry.js')).startThrowawaySandbox(settings)
    return runFlowCommand(this.ctx, {
      file: this.args.file,
      local: this.flags.local,
      junit: this.flags.junit,
      yes: this.flags.yes,
      json: this.jsonEnabled(),
      profile: this.flags.profile,
      baseUrl: this.flags['base-url'],
      config: this.config,
      startSandbox,
    })
  }
}
