import {InputError, usageError} from './errors.js'
import {parseSpan} from './duration.js'
import {clockInstant, type ClockAdvanceRequest} from './schemas/clock.js'

/** `clock advance <span>` or `--to <instant>`, checked before anything is sent; the fields are the API's. */
export function clockAdvanceInput(span: string | undefined, to: string | undefined): ClockAdvanceRequest {
  if ((span === undefined) === (to === undefined))
    throw usageError(
      span === undefined ? 'Give how far to advance (6m, 1h30m) or --to <instant>' : 'Give a span or --to, not both',
      'e.g. `svc sandbox clock advance 6m` or `svc sandbox clock advance --to 2026-12-01T00:00:00Z`.',
    )
  if (span !== undefined) {
    if (parseSpan(span) === undefined)
      throw new InputError([{field: 'by', message: `"${span}" is not a duration like 6m, 30s, 2h, 1d or 1h30m`}])
    return {by: span.trim()}
  }
  if (!clockInstant.safeParse(to).success)
    throw new InputError([{field: 'to', message: `"${to}" is not a date-time with a zone, like 2026-12-01T00:00:00Z`}])
  return {to: to!}
}
