/** The sandbox's own machinery: the rate cache, the event log (webhooks), the deferred jobs. */

import {text, int, type TableDef} from '../schema.js'
import {objectOfEvent, settledAtOfEvent} from '../event-object.js'

export const SYSTEM_TABLES: TableDef[] = [
  {name: 'rates', columns: [], indexes: [], cached: true},
  {
    name: 'events',
    columns: [
      int('seq', (d) => d.seq),
      text('type', (d) => d.event?.type),
      text('delivery', 'delivery'),
      text('endpoint', 'endpoint'),
      // The object an event is about (its data.id): delivery keeps order per object (webhook-deliverer.ts).
      text('object', (d) => objectOfEvent(d.event ?? {})),
      // When its delivery settled (null while pending): retention runs from it (store/retention.ts).
      int('settled_at', (d) => settledAtOfEvent(d)),
    ],
    indexes: [
      {columns: ['seq'], unique: true},
      {columns: ['delivery', 'endpoint', 'seq']},
      {columns: ['delivery', 'endpoint', 'object', 'seq']},
      {columns: ['object', 'seq']},
      {columns: ['type', 'seq']},
      {columns: ['settled_at']},
    ],
  },
  {
    name: 'jobs',
    columns: [int('due_at', (d) => d.dueAt), text('kind', 'kind')],
    indexes: [{columns: ['due_at']}, {columns: ['kind']}],
  },
]
