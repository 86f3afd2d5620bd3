import {readFileSync} from 'node:fs'
import {Flags} from '@oclif/core'
import {InputError, usageError} from '../errors.js'
import {idArg} from '../flags.js'
import {scaCode} from '../schemas/sca.js'
import {Secret} from '../secret.js'

/** Every `svc sca` command names its customer first. */
export const customerArg = {customerId: idArg('Customer', 'the customer (Customer:<id>)')}

export const codeFlag = Flags.string({description: 'the 6-digit SCA code the customer received (- reads it from stdin; never printed)'})
export const ipFlag = Flags.string({description: "the end user's IP address (endUserIpAddress)", default: '127.0.0.1'})

/** The SCA code from --code (or stdin with -), checked before any request and kept as a Secret. */
export function readScaCode(value: string | undefined, required = true): Secret | undefined {
  if (value === undefined) {
    if (required) throw new InputError([{field: 'code', message: 'is required: pass --code <6 digits> or --code - to read it from stdin'}])
    return undefined
  }
  const raw = value === '-' ? readFileSync(0, 'utf8').trim() : value
  // The message never echoes the value: a mistyped code is still a code.
  if (!scaCode.safeParse(raw).success) throw new InputError([{field: 'code', message: 'must be the 6-digit code'}])
  return new Secret(raw)
}

/** A secret given inline or as @file (trimmed); a file that cannot be read is a usage error naming it. */
export function readSecretValue(value: string): string {
  if (!value.startsWith('@')) return value
  try {
    return readFileSync(value.slice(1), 'utf8').trim()
  } catch (e) {
    throw usageError(`--secret: cannot read ${value.slice(1)}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`)
  }
}
