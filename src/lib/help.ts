import {Help} from '@oclif/core'
import {wrapText} from './output/wrap.js'

/**
 * oclif's help wraps its sections but prints the first line of the root, a topic and a command
 * (the summary) as it is, which a terminal then folds mid-word (`quote`/`s`). Every line wider
 * than the help's width is word-wrapped here, continuing under its own indentation. The generated
 * reference (oclif readme) formats commands without printing, so docs/commands.md is unchanged.
 */
export default class SvcHelp extends Help {
  protected override log(...args: string[]): void {
    super.log(...args.map((a) => wrapText(a, this.opts.maxWidth ?? 80)))
  }
}
