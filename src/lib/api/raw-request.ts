import {usageError} from '../errors.js'
import {readJsonInput} from '../flags.js'
import type {ApiRequest, Method} from './client.js'

/** `svc api`'s arguments and flags, as parsed. */
export interface RawArgs {
  method: string
  path: string
}
export interface RawFlags {
  data?: string
  param?: string[]
  header?: string[]
  paginate?: boolean
  output?: string
  query?: string
  sign?: boolean
  account?: string
  'idempotency-key'?: string
}

/** The request `svc api` sends, or a usage error (exit 2) before anything is sent. */
export function rawRequest(args: RawArgs, f: RawFlags): ApiRequest {
  const method = args.method.toUpperCase() as Method
  if (!args.path.startsWith('/')) throw usageError(`PATH must start with / (got "${args.path}")`)
  const path = args.path.split('?')[0].split('/').filter(Boolean).map(decodeURIComponent)
  const query = pairs(f.param, '=', (kv) => `--param "${kv}" must be key=value`)
  const headers = Object.fromEntries(
    Object.entries(pairs(f.header, ':', (h) => `--header "${h}" must be "Name: value"`)).map(([k, v]) => [
      k.trim().toLowerCase(),
      v.trim(),
    ]),
  )
  if (f.paginate && method !== 'GET') throw usageError(`--paginate follows the pages of a GET list, not ${method}`)
  if (f.output === 'ndjson' && !f.paginate) throw usageError('--output ndjson goes with --paginate')
  if (f.output === 'ndjson' && f.query !== undefined)
    throw usageError('--query selects from one JSON document; drop --output ndjson to use it')
  if (f.paginate && f.sign) throw usageError('--paginate and --sign cannot go together: lists are not signed')
  const body = f.data === undefined ? undefined : readJsonInput(f.data)
  // A raw request sends a key only when one is given (the endpoint may not take one).
  return {
    method,
    path,
    query,
    body,
    headers,
    ...(f['idempotency-key'] ? {idempotency: {}} : {}),
    ...(f.sign ? {walletSignature: {accountId: f.account}} : {}),
  }
}

/** `key=value` (or `Name: value`) flags as an object; the first bad one is named. */
function pairs(values: string[] | undefined, sep: string, bad: (v: string) => string): Record<string, string> {
  return Object.fromEntries(
    (values ?? []).map((v) => {
      const i = v.indexOf(sep)
      if (i < 1) throw usageError(bad(v))
      return [v.slice(0, i), v.slice(i + 1)]
    }),
  )
}
