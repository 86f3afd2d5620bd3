import * as z from 'zod'

/** An http(s) URL to deliver webhooks to (replay --url, listen --forward-to). */
export const webhookUrl = z.url({protocol: /^https?$/, message: 'must be an http(s) URL'})

/** POST /sandbox/events/{id}/replay (local sandbox): deliver to `url` instead of the configured endpoint. */
export const webhookReplayRequest = z.strictObject({url: webhookUrl.optional()})

/** POST /sandbox/webhooks/listener (local sandbox): `svc webhooks listen --register` points the sandbox at itself. */
export const webhookListenerRequest = z.strictObject({url: webhookUrl, pid: z.number().int().positive()})
