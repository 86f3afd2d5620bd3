import * as z from 'zod'
import {clockInstant, clockSpan} from './clock-time.js'

export {clockInstant, clockSpan} from './clock-time.js'

/** POST /sandbox/clock/advance: by a span, or to an instant (never back). */
export const clockAdvanceRequest = z
  .strictObject({by: clockSpan.optional(), to: clockInstant.optional()})
  .superRefine((v, ctx) => {
    if ((v.by === undefined) === (v.to === undefined))
      ctx.addIssue({
        code: 'custom',
        path: v.by === undefined ? ['by'] : ['to'],
        message: 'give exactly one of by or to',
      })
  })
export type ClockAdvanceRequest = z.infer<typeof clockAdvanceRequest>

/** POST /sandbox/clock/reset. */
export const clockResetRequest = z.strictObject({force: z.boolean().optional()})

/** GET /sandbox/clock and every clock answer's `clock`. */
export const clockSchema = z.looseObject({
  mode: z.enum(['real', 'frozen', 'offset']),
  now: z.string(),
  machineTime: z.string(),
  offsetMs: z.number(),
  pendingJobs: z.number(),
  nextJobAt: z.string().nullable(),
})
export type ClockView = z.infer<typeof clockSchema>

export const clockAdvanceSchema = z.looseObject({
  from: z.string(),
  to: z.string(),
  clock: clockSchema,
  jobs: z.array(z.looseObject({id: z.string(), kind: z.string(), at: z.string(), outcome: z.string()})),
  events: z.array(z.looseObject({id: z.string(), type: z.string(), timestamp: z.string()})),
  summary: z.looseObject({jobs: z.record(z.string(), z.number()), events: z.record(z.string(), z.number())}),
  /** How long the advance waited for its jobs' webhooks, its bound, and the steps it stopped waiting at. */
  webhooks: z.looseObject({waitedMs: z.number(), maxWaitMs: z.number(), stepsNotSettled: z.number()}).optional(),
})
export type ClockAdvance = z.infer<typeof clockAdvanceSchema>
