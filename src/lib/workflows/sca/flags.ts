import {readFileSync} from 'node:fs'
import {Flags} from '@oclif/core'
import {InputError, usageError} from '../../errors.js'
import {idArg} from '../../flags.js'
import {scaCode} from '../../schemas/sca.js'
import {canPrompt, promptSecret} from '../../prompts.js'
import {Secret} from '../../secret.js'
import {readStdinText} from '../../io.js'

/** Every `svc sca` command names its customer first. */
export const customerArg = {customerId: idArg('Customer', 'the customer (Customer:<id>)')}

export const codeFlag = Flags.string({
  description: 'the 6-digit SCA code the customer received (- reads it from stdin; never printed)',
})
export const ipFlag = Flags.string({description: "the end user's IP address (endUserIpAddress)", default: '127.0.0.1'})

/** The SCA code from --code (or stdin with -), checked before any request and kept as a Secret. */
export function readScaCode(value: string | undefined, required = true): Secret | undefined {
  if (value === undefined) {
    if (required)
      throw new InputError([
        {field: 'code', message: 'is required: pass --code <6 digits> or --code - to read it from stdin'},
      ])
    return undefined
  }
  const raw = value === '-' ? readStdinText().trim() : value
  // The message never echoes the value: a mistyped code is still a code.
  if (!scaCode.safeParse(raw).success) throw new InputError([{field: 'code', message: 'must be the 6-digit code'}])
  return new Secret(raw)
}

/**
 * The TOTP shared secret of `sca factors confirm`: a long-lived secret, so never a flag value (shell
 * history, ps). Like client secrets: --secret-file, --secret-stdin, or a hidden prompt on a terminal.
 */
export async function readTotpInput(opts: {
  file?: string
  stdin: boolean
  code?: string
  legacyFlag?: string
}): Promise<{secret: Secret; code: Secret}> {
  if (opts.legacyFlag !== undefined) {
    throw usageError(
      '--secret: the TOTP secret is no longer taken as a flag value (it would land in shell history and ps)',
      'Use --secret-file <file>, --secret-stdin, or answer the hidden prompt on a terminal.',
    )
  }
  if (opts.stdin && opts.code === '-')
    throw usageError(
      '--secret-stdin and --code - both read stdin',
      'Give the secret with --secret-file <file>, or the code as --code <6 digits>.',
    )
  // The code first: nobody types a secret at a prompt for a request that must fail.
  const code = readScaCode(opts.code)!
  let value: string
  if (opts.file !== undefined) {
    try {
      value = readFileSync(opts.file, 'utf8').trim()
    } catch (e) {
      throw usageError(
        `--secret-file: cannot read ${opts.file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      )
    }
  } else if (opts.stdin) value = readStdinText().trim()
  else if (canPrompt()) value = (await promptSecret('TOTP secret (from `svc sca factors enrol --show-secret`)')).trim()
  else
    throw new InputError([
      {field: 'secret', message: 'is required for TOTP: --secret-file <file> or --secret-stdin (prompts are off)'},
    ])
  if (!value) throw new InputError([{field: 'secret', message: 'must not be empty'}])
  return {secret: new Secret(value), code}
}
