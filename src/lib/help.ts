import {format} from 'node:util'
import {CommandHelp, Help} from '@oclif/core'
import {io} from './io.js'
import {wrapLine, wrapText} from './output/wrap.js'

/**
 * oclif hard-wraps a command's usage and flag lists at the width, inside a word: an enum came out
 * as `PROCESS`/`ING` and `credit`/`_authorization`. Here they wrap at spaces, and a list of choices
 * too long for a line after its "|" (output/wrap.ts), so every value stays whole.
 */
class SvcCommandHelp extends CommandHelp {
  public override wrap(body: string, spacing = this.indentSpacing): string {
    const width = this.opts.maxWidth - spacing
    return this.render(body)
      .split('\n')
      .flatMap((line) => wrapLine(line.trim(), width)) // trimmed, as oclif's own wrap does
      .join('\n')
  }
}

/**
 * oclif's help wraps its sections but prints the first line of the root, a topic and a command
 * (the summary) as it is, which a terminal then folds mid-word (`quote`/`s`). Every line wider
 * than the help's width is word-wrapped here, continuing under its own indentation. The generated
 * reference (oclif readme) formats commands without printing, so docs/commands.md is unchanged.
 */
export default class SvcHelp extends Help {
  protected override CommandHelpClass = SvcCommandHelp
  /** Help collected for the pager (on a terminal with one set), printed as it comes otherwise. */
  private paged?: string[]

  override async showHelp(argv: string[]): Promise<void> {
    const {env, stdout} = io()
    if (this.opts.sendToStderr || !stdout.isTTY) return super.showHelp(argv)
    const {pagerCommand, startPager} = await import('./pager.js')
    const command = pagerCommand(env)
    if (!command) return super.showHelp(argv)
    this.paged = []
    let text: string
    try {
      await super.showHelp(argv)
      text = this.paged.join('\n') + '\n'
    } finally {
      this.paged = undefined
    }
    const pager = startPager(command, env)
    pager.stdin.write(text)
    await pager.done()
  }

  /** oclif's log (console.log of the formatted lines), through io(): the process's streams, or an in-process run's. */
  protected override log(...args: string[]): void {
    const wrapped = args.map((a) => wrapHelp(a, this.opts.maxWidth ?? 80))
    if (this.paged) this.paged.push(...wrapped)
    else (this.opts.sendToStderr ? io().stderr : io().stdout).write(format(...wrapped) + '\n')
  }
}

/**
 * Help text wrapped, except the EXAMPLES section: an example is a command to copy and run, and a
 * line break inside it (say, inside a quoted jq program) would make it fail when pasted.
 */
export function wrapHelp(text: string, width: number): string {
  let inExamples = false
  return text
    .split('\n')
    .map((line) => {
      // Section headers are flush left in capitals (USAGE, FLAGS, EXAMPLES ...).
      if (/^[A-Z][A-Z ]*$/.test(line.replace(/\x1b\[[0-9;]*m/g, ''))) inExamples = /EXAMPLES/.test(line)
      return inExamples ? line : wrapText(line, width)
    })
    .join('\n')
}
