import {readFileSync} from 'node:fs'
import {Args, Flags} from '@oclif/core'
import {InputError, usageError} from './errors.js'
import {parseDuration} from './duration.js'
import {withArticle} from './article.js'
import {readStdinText} from './io.js'

const ID_BODY = /^[A-Za-z0-9_-]{1,128}$/

/** Checks a `<Type>:<id>` value; throws an exit-2 error naming the field. */
export function checkId(value: string, types: string[], field: string): string {
  const [prefix, ...rest] = value.split(':')
  const body = rest.join(':')
  if (!types.includes(prefix) || !ID_BODY.test(body)) {
    throw new InputError([
      {field, message: `must be ${withArticle(types.join(' or '))} id (${types[0]}:<id>), got "${value}"`},
    ])
  }
  return value
}

function idArgOptions(type: string | string[], description?: string) {
  const types = Array.isArray(type) ? type : [type]
  return {
    description: description ?? `${types.join(' or ')} id (${types[0]}:<id>)`,
    parse: async (v: string) => checkId(v, types, types[0].charAt(0).toLowerCase() + types[0].slice(1) + 'Id'),
  }
}

/** A required `<Type>:<id>` argument, prefix-checked at parse time. */
export function idArg(type: string | string[], description?: string) {
  return Args.string({...idArgOptions(type, description), required: true})
}

export function optionalIdArg(type: string | string[], description?: string) {
  // ignoreStdin: oclif fills an omitted argument from a piped stdin (waiting up to 10 ms for it), so
  // `--otp-stdin`'s code or a script's unrelated input became the id; it also loaded stdin's stream.
  return Args.string({...idArgOptions(type, description), required: false, ignoreStdin: true})
}

export function idFlag(
  type: string | string[],
  opts: {description?: string; required?: boolean; name?: string; hidden?: boolean} = {},
) {
  const types = Array.isArray(type) ? type : [type]
  return Flags.string({
    description: opts.description ?? `${types.join(' or ')} id`,
    required: opts.required,
    hidden: opts.hidden,
    parse: async (v) => checkId(v, types, opts.name ?? types[0].toLowerCase()),
  })
}

// -y is a char alias, not `char`: oclif's help misaligns a flag group whose first flag has no short
// form when another one has (issue 13); help still says -y.
export const yesFlag = Flags.boolean({
  charAliases: ['y'],
  description:
    'confirm without prompting (also -y); needed off a TTY in production, and everywhere to delete, revoke or wipe',
})
export const dryRunFlag = Flags.boolean({description: 'print the request (secrets redacted) and send nothing'})
export const idempotencyKeyFlag = Flags.string({
  description: 'Idempotency-Key to send (default: a fresh UUID per command; reuse e.g. a CI run id to re-run safely)',
})

export const pagingFlags = {
  // -L as gh has it; a char alias for the same reason as -y above.
  limit: Flags.integer({description: 'page size (1-100; also -L)', min: 1, max: 100, charAliases: ['L']}),
  cursor: Flags.string({description: 'continue from this cursor'}),
  all: Flags.boolean({description: 'follow every page and merge them'}),
}

/** The text of a file a flag names (`--signature-file sig.txt`); one that cannot be read is a usage error naming the flag. */
export function readFlagFile(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch (e) {
    throw usageError(`${what}: cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`)
  }
}

/** Reads JSON from an inline string, `@file.json`, or `-` (stdin). Bad JSON is a usage error. */
export function readJsonInput(value: string, what = '--data'): unknown {
  let text: string
  let source = 'inline JSON'
  if (value === '-' || value === '@-') {
    text = readStdinText()
    source = 'stdin'
  } else if (value.startsWith('@')) {
    source = value.slice(1)
    try {
      text = readFileSync(source, 'utf8')
    } catch (e) {
      throw usageError(`${what}: cannot read ${source}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`)
    }
  } else text = value
  try {
    return JSON.parse(text)
  } catch (e) {
    throw usageError(`${what}: ${source} is not valid JSON (${(e as Error).message})`)
  }
}

/**
 * `--data` that is merged with typed flags must be one JSON object: an array or a number would be
 * spread into nonsense keys and reported as missing flags instead of what is wrong.
 */
export function readJsonObject(value: string, what = '--data'): Record<string, unknown> {
  const data = readJsonInput(value, what)
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    const got = data === null ? 'null' : Array.isArray(data) ? 'an array' : `a ${typeof data}`
    throw usageError(
      `${what}: must be a JSON object ({...}), got ${got}`,
      'Give the request body as one object, e.g. --data \'{"customerType":"INDIVIDUAL"}\'.',
    )
  }
  return data as Record<string, unknown>
}

export function durationFlag(description: string, dflt?: string) {
  return Flags.string({
    description,
    helpGroup: 'GLOBAL',
    default: dflt,
    parse: async (v) => {
      if (parseDuration(v) === undefined) throw usageError(`--timeout: "${v}" is not a duration (e.g. 30s, 10m, 1h)`)
      return v
    },
  })
}

/**
 * A flag with a fixed set of upper-case values that also accepts them in lower case: help lists
 * each value once (`--type=INDIVIDUAL|BUSINESS`) and the command gets the upper-case value.
 */
export function choiceFlag(values: readonly string[], opts: {description: string; helpGroup?: string}) {
  return Flags.string({
    ...opts,
    helpValue: values.join('|'),
    parse: async (v, _cmd, flag) => {
      const value = v.toUpperCase()
      if (!values.includes(value))
        throw usageError(`--${flag.name}: expected one of ${values.join(', ')} (any case), got "${v}"`)
      return value
    },
  })
}

/**
 * The wallet is the positional ACCOUNTID of every wallet command that acts on a wallet (login,
 * export, privacy, stamp, credentials add/list, sessions list, keys list/purge). Commands whose
 * argument is another object (a credential, a session) take the wallet as --account. Where the
 * positional replaced --account, the flag stays as a hidden alias.
 */
export const walletArg = (description = 'the wallet: InternalAccount id (InternalAccount:<id>)') =>
  optionalIdArg('InternalAccount', description)
export const walletAliasFlag = () =>
  idFlag('InternalAccount', {description: 'same as ACCOUNTID (older spelling)', name: 'account', hidden: true})

/** ACCOUNTID or its older --account spelling; both at once must agree. */
export function walletFrom(arg: string | undefined, flag: string | undefined): string | undefined {
  if (arg && flag && arg !== flag)
    throw usageError(
      `ACCOUNTID ${arg} and --account ${flag} name different wallets`,
      'Give the wallet once, as ACCOUNTID.',
    )
  return arg ?? flag
}
