import {Help} from '@oclif/core'
import {io} from './io.js'
import {wrapText} from './output/wrap.js'

/**
 * oclif's help wraps its sections but prints the first line of the root, a topic and a command
 * (the summary) as it is, which a terminal then folds mid-word (`quote`/`s`). Every line wider
 * than the help's width is word-wrapped here, continuing under its own indentation. The generated
 * reference (oclif readme) formats commands without printing, so docs/commands.md is unchanged.
 */
export default class SvcHelp extends Help {
  /** Help collected for the pager (on a terminal with one set), printed as it comes otherwise. */
  private paged?: string[]

  override async showHelp(argv: string[]): Promise<void> {
    const {env, stdout} = io()
    if (this.opts.sendToStderr || !stdout.isTTY) return super.showHelp(argv)
    const {pagerCommand, startPager} = await import('./pager.js')
    const command = pagerCommand(env)
    if (!command) return super.showHelp(argv)
    this.paged = []
    try {
      await super.showHelp(argv)
    } finally {
      const text = this.paged.join('\n') + '\n'
      this.paged = undefined
      const pager = startPager(command, env)
      pager.stdin.write(text)
      await pager.done()
    }
  }

  protected override log(...args: string[]): void {
    const wrapped = args.map((a) => wrapHelp(a, this.opts.maxWidth ?? 80))
    if (this.paged) this.paged.push(...wrapped)
    else super.log(...wrapped)
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
