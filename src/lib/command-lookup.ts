import type {Command, Config} from '@oclif/core'

export type CommandClass = typeof Command & {id?: string}

/** The command an svc command line names, loaded, and the argv that follows its words. */
export interface FoundCommand {
  Cmd: CommandClass
  rest: string[]
}

/**
 * Which command an svc command line names in this process: oclif's config in the binary
 * (`configCommands`), the commands' own modules in a test (test/helpers/run-command.ts). Used by
 * who runs commands of this very binary in-process: `svc mcp`'s tools, `svc flow run`'s steps.
 */
export type CommandFinder = (argv: string[]) => Promise<FoundCommand | undefined>

/** The command oclif would run for `argv` (its leading words, longest first), from this process's config. */
export function configCommands(config: Config): CommandFinder {
  return async (argv) => {
    let words = 0
    while (words < argv.length && words < 4 && !argv[words].startsWith('-')) words++
    for (let n = words; n > 0; n--) {
      const command = config.findCommand(argv.slice(0, n).join(':'))
      if (command) return {Cmd: await commandClass(command), rest: argv.slice(n)}
    }
    return undefined
  }
}

/**
 * The class of a command oclif found. From the bundle, oclif's explicit strategy gives a lazy stub
 * (esbuild.config.mjs entryFor) that loads the command's module on use and hands its class over.
 */
async function commandClass(command: Command.Loadable): Promise<CommandClass> {
  const loaded = (await command.load()) as CommandClass & {commandClass?: () => Promise<CommandClass>}
  const Cmd = loaded.commandClass ? await loaded.commandClass() : loaded
  Cmd.id ??= command.id
  return Cmd
}
