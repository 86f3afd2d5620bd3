import {Args} from '@oclif/core'
import SvcHelp from '../lib/help.js'
import {BaseCommand} from '../lib/base-command.js'
import {EXIT_CODE_TABLE} from '../lib/exit-codes.js'
import {renderTable} from '../lib/output/render.js'
import {unknownHelpTopic} from '../lib/suggest-help.js'

export default class HelpCommand extends BaseCommand<typeof HelpCommand> {
  static override summary =
    'Help for svc and its commands; `svc help exit-codes` prints the exit-code table, `svc help environment` the variables svc reads'
  static override examples = [
    '<%= config.bin %> help customers create',
    '<%= config.bin %> help exit-codes',
    '<%= config.bin %> help environment',
  ]
  static override strict = false
  static override args = {
    command: Args.string({description: 'command or topic, or exit-codes, or environment', ignoreStdin: true}),
  }

  async run() {
    const argv = this.argv.filter((a) => !a.startsWith('-'))
    if (argv[0] === 'exit-codes') {
      await renderTable(
        this.out,
        ['CODE', 'MEANING'],
        EXIT_CODE_TABLE.map(([c, m]) => [c, m]),
      )
      return Object.fromEntries(EXIT_CODE_TABLE.map(([c, m]) => [String(c), m]))
    }
    if (argv[0] === 'environment') {
      const {ENVIRONMENT} = await import('../lib/environment.js')
      await renderTable(
        this.out,
        ['VARIABLE', 'GROUP', 'WHAT IT DOES'],
        ENVIRONMENT.map((v) => [v.name, v.group, v.description]),
      )
      return {variables: ENVIRONMENT}
    }
    await new SvcHelp(this.config, {sendToStderr: false}).showHelp(argv).catch((e: Error) => {
      throw unknownHelpTopic(
        e,
        argv,
        this.config.commands.filter((c) => !c.hidden).map((c) => c.id),
      )
    })
    return undefined
  }
}
