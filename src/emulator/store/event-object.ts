/**
 * The object an event is about: the `id` of its data (a customer, a transaction, a card ...), or,
 * for an event about no object (TEST), the event itself. Webhook delivery keeps order within one
 * object and none across objects, so a failing event holds back only the later events of its object.
 */
export function objectOfEvent(event: {id?: string; data?: unknown}): string {
  const data = event.data as Record<string, unknown> | undefined
  const id = data && typeof data === 'object' ? (data.id ?? data.transactionId ?? data.operationId) : undefined
  return typeof id === 'string' && id ? id : String(event.id ?? '')
}

/**
 * When an event's delivery settled, the time its retention runs from: its last attempt (delivered,
 * dead, or replayed since), or when it happened if it was never addressed (`none`). A pending event
 * has not settled (null): it is never pruned, however old.
 */
export function settledAtOfEvent(stored: {
  delivery?: string
  delivered?: boolean
  event?: {timestamp?: string}
  attempts?: Array<{at?: string}>
}): number | null {
  if (stored.delivery === 'pending') return null
  const last = stored.attempts?.at(-1)?.at ?? stored.event?.timestamp
  const ms = last ? Date.parse(last) : NaN
  return Number.isFinite(ms) ? ms : null
}
