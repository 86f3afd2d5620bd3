import type {Contract} from './contract.js'
import {WEBHOOK_ALLOWANCES, WEBHOOK_SCHEMA_OVERRIDES} from './contract-allow.js'

type Json = Record<string, unknown>

/**
 * Webhook bodies against the contract's `webhooks:` section: each operation's request body schema
 * (e.g. IncomingPaymentWebhook = BaseWebhook + data + a `type` enum) names the event types it
 * carries, so an event is checked against the operation whose enum holds its type. Validated in the
 * response direction: the sandbox sends them (a writeOnly field such as `identifier` must be absent).
 */
export function webhookOperations(contract: Contract): Map<string, string> {
  const byType = new Map<string, string>()
  const hooks = (contract.doc.webhooks ?? {}) as Record<string, Json>
  for (const [name, item] of Object.entries(hooks)) {
    const schema = (((item.post as Json)?.requestBody as Json)?.content as Json)?.['application/json'] as
      Json | undefined
    const component = contract.deref((schema?.schema ?? {}) as Json)
    for (const part of (component.allOf ?? []) as Json[]) {
      const types = ((contract.deref(part).properties as Json | undefined)?.type as Json | undefined)?.enum as
        string[] | undefined
      for (const t of types ?? []) byType.set(t, name)
    }
  }
  for (const [type, name] of Object.entries(WEBHOOK_SCHEMA_OVERRIDES)) byType.set(type, name)
  return byType
}

/** Unexcused problems with one delivered event body ([] when it conforms); `allowance` names what excused it, if anything did. */
export function checkWebhookBody(
  contract: Contract,
  body: {type?: unknown},
): {errors: string[]; operation?: string; allowance?: string} {
  const type = String(body.type)
  const unschemed = WEBHOOK_ALLOWANCES.find((a) =>
    a.noSchema?.some((t) => t === type || (t.endsWith('.*') && type.startsWith(t.slice(0, -1)))),
  )
  const operation = webhookOperations(contract).get(type)
  if (!operation) {
    if (unschemed) return {errors: envelope(body), allowance: unschemed.id}
    return {errors: [`no webhook operation in the contract carries type ${type}`]}
  }
  const pointer = `/webhooks/${operation}/post/requestBody/content/application~1json/schema`
  let allowance: string | undefined
  const errors = contract.validate('response', pointer, body).filter((line) => {
    const a = WEBHOOK_ALLOWANCES.find((x) => x.excuses?.(type, line, body))
    if (a) allowance = a.id
    return !a
  })
  return {errors, operation, ...(allowance ? {allowance} : {})}
}

/** The spec's envelope (§6): id `Webhook:<id>`, type, timestamp, data. */
function envelope(body: Json | {type?: unknown}): string[] {
  const b = body as Json
  const errors: string[] = []
  if (typeof b.id !== 'string' || !b.id.startsWith('Webhook:')) errors.push('/id must be Webhook:<id>')
  if (typeof b.timestamp !== 'string' || Number.isNaN(Date.parse(b.timestamp)))
    errors.push('/timestamp must be a date-time')
  if (!b.data || typeof b.data !== 'object') errors.push('/data must be an object')
  return errors
}

/** Every emitted webhook of a test file, checked; one report line per (type, problem), naming the first test that showed it. */
export function webhookFindings(contract: Contract, emitted: Array<{test: string; body: {type?: unknown}}>): string[] {
  const seen = new Map<string, string>()
  for (const {test, body} of emitted) {
    const {errors, operation} = checkWebhookBody(contract, body)
    for (const e of errors) {
      const key = `webhook ${String(body.type)}${operation ? ` (${operation})` : ''}: ${e}`
      if (!seen.has(key)) seen.set(key, test)
    }
  }
  return [...seen].map(([line, test]) => `${line}\n    first in: ${test}`)
}
