import type {Context} from '../../context.js'
import {usageError} from '../../errors.js'
import {canPrompt, promptSecret, requireFlags} from '../../prompts.js'
import {Secret} from '../../secret.js'
import {readStdinText} from '../../io.js'

/** A secret from stdin (first line, trimmed) or a hidden prompt; never from argv. */
export async function readSecretInput(
  ctx: Context,
  opts: {stdin?: boolean; flag: string; prompt: string; onAbort?: string},
): Promise<Secret> {
  if (opts.stdin) {
    const text = readStdinText().split(/\r?\n/)[0]?.trim() ?? ''
    if (!text) throw usageError(`--${opts.flag}: stdin was empty`)
    return new Secret(text)
  }
  if (!canPrompt(ctx.env)) requireFlags([opts.flag])
  return new Secret((await promptSecret(opts.prompt, {onAbort: opts.onAbort})).trim())
}
