import {relativeTime} from './format.js'
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
