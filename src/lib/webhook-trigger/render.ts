import type {Output} from '../output/output.js'
import {renderKeyValue} from '../output/render.js'
import type {TriggerResult} from './run.js'

/** What happened on stderr; the result (event, type, object, delivery) as a key/value block on stdout unless --json. */
export function renderTriggerResult(out: Output, r: TriggerResult, json: boolean): void {
  if (!r.event)
    out.success(
      `Did the ${r.type} recipe (${r.objectId}); this sandbox has no event log, so the event goes to the configured webhook endpoint unseen here.`,
    )
  else {
    out.success(`${r.event.type} happened and was ${r.delivery?.state === 'none' ? 'logged' : r.delivery?.state}`)
    if (r.delivery?.state === 'none')
      out.info(
        'No webhook endpoint is set, so it was only logged: `svc webhooks listen --register`, or `svc webhooks endpoint <url>`, or re-deliver it with `svc webhooks replay`.',
      )
    if (r.delivery?.held) out.warn(`Not delivered yet, ${r.delivery.held}`)
  }
  if (json) return
  const status =
    r.delivery?.endpointStatus !== undefined ? ` (endpoint answered HTTP ${r.delivery.endpointStatus})` : ''
  renderKeyValue(out, [
    ['event', r.event?.id],
    ['type', r.type],
    ['object', r.objectId],
    ['delivery', r.delivery ? `${r.delivery.state}${status}` : 'not visible here (no event log)'],
    ['held', r.delivery?.held?.replace(/^held: /, '')],
    ['re-delivered', r.replay ? `${r.replay.url} (HTTP ${r.replay.status})` : undefined],
  ])
}
