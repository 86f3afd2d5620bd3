import type {Output} from '../output/output.js'
import {renderKeyValue, renderTable} from '../output/render.js'
import {TRIGGERABLE} from './catalogue.js'
import {objectFormOf} from './object-forms.js'
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
    [
      'now',
      r.object
        ? String(r.object.status ?? r.object.state ?? r.object.kycStatus ?? r.object.kybStatus ?? '')
        : undefined,
    ],
    ['delivery', r.delivery ? `${r.delivery.state}${status}` : 'not visible here (no event log)'],
    ['held', r.delivery?.held?.replace(/^held: /, '')],
    ['re-delivered', r.replay ? `${r.replay.url} (HTTP ${r.replay.status})` : undefined],
  ])
}

/** `svc webhooks trigger --list`: each type, how a recipe makes it, and its `--object` form if it has one. */
export async function renderTriggerList(out: Output, json: boolean) {
  const data = TRIGGERABLE.map(({type, how, spec, localOnly}) => ({
    type,
    spec,
    localOnly: Boolean(localOnly),
    how,
    ...objectFormOf(type),
  }))
  if (!json) {
    await renderTable(
      out,
      ['type', 'spec §6', 'local only', 'what the sandbox is made to do', '--object'],
      data.map((t) => [
        t.type,
        t.spec ? 'yes' : '',
        t.localOnly ? 'yes' : '',
        t.how,
        t.object ? `${t.object.needs}${t.object.params.length ? ` (--set ${t.object.params.join(', ')})` : ''}` : '',
      ]),
    )
  }
  return {data}
}
