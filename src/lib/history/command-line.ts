import {redact, SECRET_KEY} from '../secret.js'
import type {ErrorDocument} from '../errors.js'
import {hideCredential} from '../api/headers.js'

/** Flags whose value is a secret or a one-time code, beyond what SECRET_KEY names (`--code 123456`). */
const SECRET_FLAG = /^(code|assertion|attestation|signature|token|network-token|admin-secret)$/

const REDACTED = '[REDACTED]'

/**
 * The command's argv with every secret replaced: values of secret flags, secret fields inside JSON
 * (`--data`), credentials in `--header`, and the values of secret arguments (`agents login <code>`).
 */
export function redactArgv(argv: string[], secretValues: string[] = []): string[] {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const eq = a.startsWith('--') ? a.indexOf('=') : -1
    const name = a.startsWith('--') ? (eq > 0 ? a.slice(2, eq) : a.slice(2)) : undefined
    if (name !== undefined && eq > 0) out.push(`--${name}=${redactValue(name, a.slice(eq + 1))}`)
    else if (name !== undefined && isSecretFlag(name) && i + 1 < argv.length) out.push(a, redactValue(name, argv[++i]))
    else if (name === 'header' && i + 1 < argv.length) out.push(a, redactValue('header', argv[++i]))
    else out.push(secretValues.includes(a) ? REDACTED : redactJson(a))
  }
  return out
}

function isSecretFlag(name: string): boolean {
  return name !== 'idempotency-key' && (SECRET_FLAG.test(name) || SECRET_KEY.test(name.replaceAll('-', '')))
}

function redactValue(name: string, value: string): string {
  if (isSecretFlag(name)) return REDACTED
  if (name === 'header') {
    const i = value.indexOf(':')
    return i > 0 ? `${value.slice(0, i)}: ${hideCredential(value.slice(0, i), value.slice(i + 1).trim())}` : value
  }
  return redactJson(value)
}

/** A JSON object or array given inline (`--data '{…}'`) with its secret fields redacted; anything else as it is. */
function redactJson(value: string): string {
  if (!/^\s*[[{]/.test(value)) return value
  try {
    return JSON.stringify(redact(JSON.parse(value)))
  } catch {
    return value
  }
}

/** A word as a POSIX shell reads it back: bare when safe, else single-quoted. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`
}

/** `svc <command id as words> <argv…>`, quoted for a shell. */
export function commandLine(commandId: string, argv: string[]): string {
  return ['svc', ...commandId.split(':'), ...argv].map(shellQuote).join(' ')
}

/** The same command with `--idempotency-key <key>` (any key it was given is replaced): it finishes the write exactly once. */
export function withIdempotencyKey(argv: string[], key: string): string[] {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--idempotency-key') i++
    else if (!argv[i].startsWith('--idempotency-key=')) out.push(argv[i])
  }
  return [...out, '--idempotency-key', key]
}

/**
 * An OUTCOME_UNKNOWN document made concrete for the command that failed: with a key, the exact
 * command that finishes the write exactly once (the same command line, secrets redacted, with
 * `--idempotency-key <key>`), also in details.command; and the history record that `svc history
 * finish` takes. A command without --idempotency-key (history finish itself) is finished by number.
 */
export function withFinishHint(
  doc: ErrorDocument,
  opts: {commandId: string; argv: string[]; takesKey: boolean; record?: number},
): ErrorDocument {
  const details = doc.details as {idempotencyKey?: string | null; commandKey?: string}
  const key = details.commandKey ?? details.idempotencyKey
  const byNumber = opts.record ? `svc history finish ${opts.record}` : undefined
  if (!key) return opts.record ? {...doc, details: {...doc.details, history: opts.record}} : doc
  const command = opts.takesKey ? commandLine(opts.commandId, withIdempotencyKey(opts.argv, key)) : byNumber
  if (!command) return doc
  const also = byNumber && command !== byNumber ? `, or \`${byNumber}\` (that write alone)` : ''
  const redacted = command.includes(REDACTED) ? ' Give the [REDACTED] values again.' : ''
  return {
    ...doc,
    details: {...doc.details, command, ...(opts.record ? {history: opts.record} : {})},
    hint: `Finish it exactly once with the same key (the Service answers the first result, or does it now): \`${command}\`${also}. Never re-run it without the key.${redacted}`,
  }
}
