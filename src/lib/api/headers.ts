import type {ClientOptions, RequestOptions} from './client-options.js'

/**
 * The headers of a request, in the order they are sent: the same function builds what is sent
 * and what --dry-run shows (`redacted`: the credential's scheme only). `key`: the Idempotency-Key.
 */
export function requestHeaders(
  opts: Pick<ClientOptions, 'userAgent' | 'bearer' | 'tokenId' | 'secret'>,
  req: RequestOptions,
  key: string | undefined,
  json: boolean,
  contentType: string | undefined,
  redacted: boolean,
): Record<string, string> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': opts.userAgent,
    ...(contentType ? {'content-type': contentType} : json ? {'content-type': 'application/json'} : {}),
    ...(key ? {'idempotency-key': key} : {}),
    ...req.headers,
  }
  if (opts.bearer) headers.authorization = 'Bearer ' + (redacted ? '[REDACTED]' : opts.bearer.reveal())
  else if (opts.tokenId && opts.secret) {
    headers.authorization =
      'Basic ' + (redacted ? '[REDACTED]' : Buffer.from(`${opts.tokenId}:${opts.secret.reveal()}`).toString('base64'))
  }
  return headers
}

/** Credentials in a described header (also one given with `svc api --header`): the scheme stays, the value goes. */
export function hideCredential(name: string, value: string): string {
  if (/signature/i.test(name)) return '[REDACTED]'
  if (!/authorization/i.test(name)) return value
  const scheme = /^(\S+) /.exec(value)?.[1]
  return scheme ? `${scheme} [REDACTED]` : '[REDACTED]'
}
