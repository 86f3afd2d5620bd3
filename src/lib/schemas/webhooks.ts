import * as z from 'zod'

/** An http(s) URL to deliver webhooks to (replay --url, listen --forward-to). */
export const webhookUrl = z.url({protocol: /^https?$/, message: 'must be an http(s) URL'})

/** POST /sandbox/events/{id}/replay (local sandbox): deliver to `url` instead of the configured endpoint. */
export const webhookReplayRequest = z.strictObject({url: webhookUrl.optional()})

/** POST /sandbox/webhooks/listener (local sandbox): `svc webhooks listen --register` points the sandbox at itself. */
export const webhookListenerRequest = z.strictObject({url: webhookUrl, pid: z.number().int().positive()})

/**
 * POST /sandbox/webhooks/trigger (local sandbox): take an existing object through the transition that
 * emits `type` (object-forms.ts lists them). `set` holds the transition's parameters as given on the
 * command line (`--set field=value`): strings, amounts as decimals in the object's currency.
 */
export const objectTriggerRequest = z.strictObject({
  type: z.string().min(1).max(100),
  objectId: z.string().min(1).max(200),
  set: z.record(z.string().max(100), z.string().max(200)).optional(),
})
export type ObjectTriggerRequest = z.infer<typeof objectTriggerRequest>
