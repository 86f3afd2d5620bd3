import * as z from 'zod'
import {parseSpan} from '../duration.js'

// Apart from clock.ts (the clock routes' requests and answers), so a flow's clock steps build just these.

/** An instant with a time zone (2026-12-01T00:00:00Z); a date without one would depend on the caller's zone. */
export const clockInstant = z
  .string()
  .refine(
    (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !isNaN(Date.parse(v)),
    {
      message: 'must be a date-time with a zone, like 2026-12-01T00:00:00Z',
    },
  )

export const clockSpan = z
  .string()
  .refine((v) => parseSpan(v) !== undefined, {message: 'must be a duration like 6m, 30s, 2h, 1d or 1h30m'})
