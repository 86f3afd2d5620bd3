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
