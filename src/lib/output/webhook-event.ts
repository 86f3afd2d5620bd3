import type {ForwardResult} from '../webhook-forward.js'
import type {ReceivedEvent} from '../webhook-listener.js'
import {relativeTime} from './format.js'
import type {Output} from './output.js'
import type {Column} from './table.js'

export interface StoredEventSummary {
  id: string
  type: string
  timestamp: string
  data?: {id?: string; status?: string; kycStatus?: string; kybStatus?: string}
  delivery?: {state?: string}
}

/**
 * Ids and types are never cut (they are pasted into `webhooks replay` and `--type`): at 80 columns
 * the event id and type are shown with the state, and the object's id moves behind --wide.
 */
export const eventColumns: Array<Column<StoredEventSummary>> = [
  {key: 'id', header: 'ID', get: (e) => e.id, noTruncate: true},
  {key: 'type', header: 'TYPE', get: (e) => e.type, priority: 1, noTruncate: true},
  {key: 'object', header: 'OBJECT', get: (e) => e.data?.id, priority: 4, noTruncate: true},
  {
    key: 'state',
    header: 'STATE',
    get: (e) => e.data?.status ?? e.data?.kycStatus ?? e.data?.kybStatus,
    priority: 2,
    noTruncate: true,
  },
  {key: 'delivery', header: 'DELIVERY', get: (e) => e.delivery?.state, priority: 5},
  {key: 'time', header: 'TIME', get: (e) => relativeTime(e.timestamp), raw: (e) => e.timestamp, priority: 3},
]

/** One event `webhooks listen` received: a line for a person, one JSON document a line under --json (with its forward result). */
export function printReceivedEvent(out: Output, e: ReceivedEvent, forwarded?: ForwardResult): void {
  if (out.json) {
    out.write(JSON.stringify(forwarded ? {...e.event, forward: forwarded} : e.event) + '\n')
    return
  }
  const data = e.event.data as StoredEventSummary['data']
  const state = data?.status ?? data?.kycStatus ?? data?.kybStatus ?? ''
  const app = !forwarded
    ? ''
    : forwarded.status === undefined
      ? out.red(`-> ${forwarded.error}  `)
      : `-> ${(forwarded.status < 300 ? out.green : out.red)(String(forwarded.status))}  `
  out.print(`${e.event.timestamp}  ${app}${out.bold(e.event.type)}  ${data?.id ?? ''} ${state}  ${out.dim(e.event.id)}`)
}
