import {usageError} from '../errors.js'
import type {Output} from '../output/output.js'
import type {Secret} from '../secret.js'
import {checkOutPath, writeSecretFile} from './wallet/secret-file.js'

/**
 * Where a secret the service shows only once goes (a new API token's client secret): a new 0600
 * file (--out), stdout on explicit request (--show-secret, the one way into --json), or a terminal.
 * Decided, and refused when there is nowhere safe, before anything is requested.
 */
export type SecretDestination = {kind: 'file'; path: string; force: boolean} | {kind: 'stdout'} | {kind: 'terminal'}

export function planSecretDestination(o: {
  out?: string
  force?: boolean
  showSecret?: boolean
  json: boolean
  stdoutIsTTY: boolean
  what: string
}): SecretDestination {
  if (o.out && o.showSecret)
    throw usageError('--out and --show-secret cannot be used together', 'Pick one place for the secret.')
  if (o.out) {
    checkOutPath(o.out, o.force)
    return {kind: 'file', path: o.out, force: Boolean(o.force)}
  }
  if (o.showSecret) return {kind: 'stdout'}
  if (o.json || !o.stdoutIsTTY) {
    throw usageError(
      `The ${o.what} is shown only once and only on a terminal`,
      'Use --out <file> to write it to a new 0600 file, or --show-secret to print it on stdout (in --json too).',
    )
  }
  return {kind: 'terminal'}
}

/** Delivers the secret; returns the fields the command's result carries about it. */
export function deliverSecret(
  dest: SecretDestination,
  secret: Secret,
  out: Output,
  what: string,
): {clientSecret?: string; secretFile?: string} {
  if (dest.kind === 'file') {
    writeSecretFile(dest.path, secret.reveal() + '\n', dest.force)
    out.info(`The ${what} was written to ${dest.path} (0600). It cannot be shown again.`)
    return {secretFile: dest.path}
  }
  out.warn(`The ${what} is shown once and cannot be retrieved again; store it now.`)
  if (dest.kind === 'terminal') {
    out.print(secret.reveal())
    return {}
  }
  // --show-secret: in the result itself, so --json prints it on stdout and nowhere else.
  return {clientSecret: secret.reveal()}
}
