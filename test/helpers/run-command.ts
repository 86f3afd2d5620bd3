import {readFileSync} from 'node:fs'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {Command, Config} from '@oclif/core'
import type {FoundCommand} from '../../src/lib/command-lookup.js'
import {runInProcess, type CommandClass, type InProcessDeps} from '../../src/lib/in-process.js'
import {svc, type CliResult} from './cli.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** What an in-process run takes instead of the process's own: the same knobs as the child-process `svc()` (env may unset a variable). */
export type RunDeps = Omit<InProcessDeps, 'env'> & {env?: Record<string, string | undefined>}

let config: Promise<Config> | undefined
let running = false

/**
 * Runs one command in the test's own process (gh's runF, sf's `new Cmd(argv, config).run()`): the
 * real parsing, context, API client and output layer, on an Io of the test's making. Returns what a
 * child process would have given: exit code, stdout, stderr. One at a time: the Io is the process's
 * current one while a command runs (`svcInProcess` sends a second, concurrent one to the binary).
 */
export async function runCommand(Cmd: CommandClass, argv: string[], deps: RunDeps = {}): Promise<CliResult> {
  if (running) throw new Error('runCommand: another command is running in this process; await it first')
  running = true
  try {
    return await runNow(Cmd, argv, deps)
  } finally {
    running = false
  }
}

async function runNow(Cmd: CommandClass, argv: string[], deps: RunDeps): Promise<CliResult> {
  // No pager unless the test sets one: the pager's output would go to the test runner's terminal.
  const env: NodeJS.ProcessEnv = {PATH: process.env.PATH, SVC_PAGER: '', ...deps.env}
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k]
  const r = await runInProcess(Cmd, argv, await loadConfig(), {...deps, env, commands: srcCommands})
  return result(r.code, r.stdout, r.stderr)
}

function result(code: number, stdout: string, stderr: string): CliResult {
  return {
    code,
    stdout,
    stderr,
    json() {
      try {
        return JSON.parse(stdout)
      } catch {
        throw new Error(`stdout is not JSON (exit ${code}):\n${stdout}\nstderr:\n${stderr}`)
      }
    },
  }
}

/**
 * After help was shown: oclif's help writes into the commands it shows (their ids as displayed),
 * which a process never sees twice but the in-process runs that share this config would.
 */
function forgetConfig(): void {
  config = undefined
}

function loadConfig(): Promise<Config> {
  config ??= Config.load({root: ROOT})
  return config
}

interface ManifestEntry {
  relativePath: string[]
  aliases?: string[]
}
let commands: Map<string, ManifestEntry> | undefined

/** The manifest's commands by id and by alias (`customers:create`). */
function commandTable(): Map<string, ManifestEntry> {
  if (commands) return commands
  const manifest = JSON.parse(readFileSync(`${ROOT}/oclif.manifest.json`, 'utf8')) as {
    commands: Record<string, ManifestEntry>
  }
  commands = new Map()
  for (const [id, entry] of Object.entries(manifest.commands)) {
    commands.set(id, entry)
    for (const alias of entry.aliases ?? []) commands.set(alias, entry)
  }
  return commands
}

/** The help flags (`--help`, and package.json oclif.additionalHelpFlags). */
const HELP_FLAGS = new Set(['--help', '-h'])

/** A help flag before any `--`: oclif shows help instead of running anything (its main.ts helpAddition). */
export function asksForHelp(args: string[]): boolean {
  for (const a of args) {
    if (a === '--') return false
    if (HELP_FLAGS.has(a)) return true
  }
  return false
}

/**
 * The command an svc command line names and the rest of its argv, when it names one of svc's own
 * commands (`svc help ...` included) and asks for no help; undefined otherwise (help flags, topics,
 * typos, --version and plugins: see svcInProcess).
 */
export function commandOf(args: string[]): {file: string; id: string; argv: string[]} | undefined {
  // --version first is bin/run.js's own answer (oclif's versionAddition looks there too); later it is a
  // command's flag (`customers terms --version 2025-10-01`).
  if (asksForHelp(args) || args[0] === '--version') return undefined
  const table = commandTable()
  let words = 0
  while (words < args.length && !args[words].startsWith('-')) words++
  for (let n = words; n > 0; n--) {
    const id = args.slice(0, n).join(':')
    const entry = table.get(id)
    if (!entry || entry.relativePath[0] !== 'dist') continue
    const file = `${ROOT}/src/${entry.relativePath.slice(1).join('/').replace(/\.js$/, '.ts')}`
    return {file, id, argv: args.slice(n)}
  }
  return undefined
}

/**
 * The command class an svc command line names, from its module in src/ (so it shares src/lib with the
 * test), and the argv after its words: also how a command run here runs another (a flow's svc: step).
 */
async function srcCommands(args: string[]): Promise<FoundCommand | undefined> {
  const found = commandOf(args)
  if (!found) return undefined
  const Cmd = ((await import(pathToFileURL(found.file).href)) as {default: CommandClass}).default
  Cmd.id = found.id
  return {Cmd, rest: found.argv}
}

/**
 * An svc command line run in-process when it names a command (the command's module from src/, so
 * it shares src/lib with the test), else through the built binary (help, typos, plugins, or a command
 * started while another runs): the drop-in in-process `svc()`. A `cwd` is the test process's working
 * directory while the command runs (one command at a time, so nothing else sees it).
 */
export async function svcInProcess(args: string[], deps: RunDeps & {timeoutMs?: number; cwd?: string} = {}) {
  // A command started while another still runs (a test racing two operators) gets its own process.
  const found = running ? undefined : commandOf(args)
  if (!found && !running && asksForHelp(args)) {
    const shown = await helpInProcess(args, deps)
    if (shown) return shown
  }
  if (!found)
    return svc(args, {
      env: deps.env,
      input: typeof deps.input === 'string' ? deps.input : undefined,
      timeoutMs: deps.timeoutMs,
      cwd: deps.cwd,
    })
  running = true // taken before the first await, so a concurrent call sees it
  try {
    const {Cmd} = (await srcCommands(args))!
    const home = process.cwd()
    if (deps.cwd) process.chdir(deps.cwd)
    try {
      return await runNow(Cmd, found.argv, deps)
    } finally {
      if (deps.cwd) process.chdir(home)
    }
  } finally {
    running = false
    if (found.id === 'help') forgetConfig()
  }
}

/**
 * `--help`/`-h` on a command or topic, shown in-process the way oclif's main shows it: the package's
 * help class (src/lib/help.ts, writing through io()) with its helpOptions. Undefined when the line
 * names no command or topic: what a mistyped line prints is bin/run.js's, so the binary shows it.
 */
async function helpInProcess(args: string[], deps: RunDeps & {cwd?: string}): Promise<CliResult | undefined> {
  running = true // taken before the first await, so a concurrent call sees it
  try {
    const config = await loadConfig()
    const words = args.filter((a) => !a.startsWith('-'))
    if (words.length > 0 && !config.findCommand(words.join(':')) && !config.findTopic(words.join(':'))) {
      // An argument after the command (`customers get X --help`): the longest leading words that name one.
      let n = words.length - 1
      while (n > 0 && !config.findCommand(words.slice(0, n).join(':'))) n--
      if (n === 0) return undefined
    }
    const {default: SvcHelp} = await import('../../src/lib/help.js')
    class ShowHelp extends Command {
      static override strict = false
      async run() {
        await new SvcHelp(this.config, this.config.pjson.oclif.helpOptions).showHelp(this.argv)
      }
    }
    try {
      return await runNow(ShowHelp as unknown as CommandClass, args, deps)
    } finally {
      forgetConfig()
    }
  } finally {
    running = false
  }
}
