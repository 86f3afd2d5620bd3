/** How anything a command throws becomes an svc error with its exit code (the base command prints it). */
import {SvcError, isSvcError} from './errors.js'
import {ExitCode} from './exit-codes.js'
import {missingFlagsError} from './missing-flags.js'

/** Anything thrown becomes an SvcError: parse errors are usage (exit 2), unknown errors are bugs (exit 1). */
export function toSvcError(err: Error & {oclif?: {exit?: number}; code?: string}): SvcError {
  if (isSvcError(err)) {
    // oclif rewrites errors thrown by a flag's parse() into "Parsing --x \n\t<message>\nSee more help ...".
    if (err.message.startsWith('Parsing --')) err.message = parseMessage(err.message)
    return err
  }
  // oclif's required flags ("Missing required flag account" once per flag): named like svc's own, all at once.
  const required = [...err.message.matchAll(/Missing required flag:?\s+(?:--)?([\w-]+)/g)].map((m) => m[1])
  if (required.length)
    return missingFlagsError(required, [], 'See `svc <command> --help` for the flags; nothing was sent.')
  if (
    err.oclif ||
    /Nonexistent flag|Unexpected argument|Missing required|Expected --|--.+ cannot also|Parsing --|at least one of|exactly one of|must also be provided/i.test(
      err.message,
    )
  ) {
    return new SvcError({
      code: 'USAGE',
      message: parseMessage(err.message),
      exitCode: ExitCode.USAGE,
      hint: 'See `svc <command> --help` for the flags and arguments.',
    })
  }
  return new SvcError({
    code: 'INTERNAL_CLI_ERROR',
    message: `Unexpected error: ${err.message}`,
    exitCode: ExitCode.FAILED,
    hint: 'This is a bug in svc; re-run with --debug and report it.',
  })
}

/** oclif's multi-line parse message as one line that keeps the reason ("--limit: Expected an integer ..."). */
function parseMessage(message: string): string {
  const lines = message
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^See more help/i.test(l))
  const flag = /^Parsing (--[\w-]+)$/.exec(lines[0] ?? '')?.[1]
  if (!flag || lines.length < 2) return lines.join(' ')
  const rest = lines.slice(1).join(' ')
  return rest.startsWith(`${flag}:`) ? rest : `${flag}: ${rest}`
}
