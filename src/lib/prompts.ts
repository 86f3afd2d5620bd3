import {usageError} from './errors.js'
import {interruptedError} from './interrupt.js'
import {currentEnv, io} from './io.js'

/** Prompts only when a person is there: stdin and stderr are TTYs, and neither CI nor SVC_NO_INPUT is set. */
export function canPrompt(env = currentEnv()): boolean {
  return Boolean(io().stdinIsTTY && io().stderr.isTTY && !env.CI && !env.SVC_NO_INPUT)
}

/** Fails with exit 2 naming every missing flag, for scripts that cannot answer a prompt. */
export function requireFlags(missing: string[]): never {
  throw usageError(
    `Missing ${missing.length === 1 ? 'flag' : 'flags'}: ${missing.map((f) => `--${f}`).join(', ')}`,
    'Prompts are off (no TTY, CI or SVC_NO_INPUT); pass the values as flags.',
  )
}

async function inquirer() {
  return import('@inquirer/prompts')
}

const toStderr = () => ({output: io().stderr})

/** Ctrl-C at a prompt: exit 130 like any interrupt, saying what was (not) sent; the default is "nothing was sent". */
function mapAbort(error: unknown, said?: string): never {
  if (error instanceof Error && error.name === 'ExitPromptError') throw interruptedError(undefined, true, said)
  throw error
}

/** `validate` returns true, or the message shown under the question until the answer passes. */
export async function promptText(
  message: string,
  opts: {default?: string; validate?: (value: string) => true | string} = {},
): Promise<string> {
  const {input} = await inquirer()
  return input({message, default: opts.default, validate: opts.validate}, toStderr()).catch(mapAbort)
}

/** `onAbort`: what Ctrl-C here leaves behind, when "nothing was sent" would not be the whole truth. */
export async function promptSecret(message: string, opts: {onAbort?: string} = {}): Promise<string> {
  const {password} = await inquirer()
  return password({message, mask: true}, toStderr()).catch((e) => mapAbort(e, opts.onAbort))
}

export async function promptConfirm(message: string, dflt = false): Promise<boolean> {
  const {confirm} = await inquirer()
  return confirm({message, default: dflt}, toStderr()).catch(mapAbort)
}

export async function promptSelect<T extends string>(message: string, choices: T[]): Promise<T> {
  const {select} = await inquirer()
  return select({message, choices: choices.map((value) => ({value}))}, toStderr()).catch(mapAbort) as Promise<T>
}
