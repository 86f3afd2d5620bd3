import type {ApiClient, Method} from './api/client.js'
import {redact} from './secret.js'

/** What --dry-run prints: the request that would be sent, secrets redacted, nothing sent. */
export function describeRequest(client: ApiClient | undefined, baseUrl: string, req: {method: Method; path: string[]; body?: unknown; query?: Record<string, string | undefined>; idempotencyKey?: string}) {
  const url = client ? client.url(req.path, req.query) : `${baseUrl}/${req.path.map(encodeURIComponent).join('/')}`
  return {
    dryRun: true,
    request: {
      method: req.method,
      url,
      headers: {authorization: 'Basic [REDACTED]', ...(req.idempotencyKey ? {'idempotency-key': req.idempotencyKey} : {}), ...(req.body !== undefined ? {'content-type': 'application/json'} : {})},
      ...(req.body !== undefined ? {body: redact(req.body)} : {}),
    },
  }
}
