import {Args} from '@oclif/core'
import SvcHelp from '../lib/help.js'
import {BaseCommand} from '../lib/base-command.js'
import {EXIT_CODE_TABLE} from '../lib/exit-codes.js'
import {renderTable} from '../lib/output/render.js'
import {unknownHelpTopic} from '../lib/suggest-help.js'

export default class HelpCommand extends BaseCommand<typeof HelpCommand> {
  static override summary = 'Help for svc and its commands; `svc help exit-codes` prints the exit-code table'
  static override examples = ['<%= config.bin %> help customers create', '<%= config.bin %> help exit-codes']
  static override strict = false
  static override args = {command: Args.string({description: 'command or topic, or exit-codes', ignoreStdin: true})}

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
