import {redact} from '../secret.js'
import type {ClientOptions, RequestOptions} from './client-options.js'
import {hideCredential, requestHeaders} from './headers.js'
import type {Method} from './request.js'
import {requestUrl} from './url.js'

/** What --dry-run prints: the request as it would leave, credentials and secret fields redacted. */
export interface DescribedRequest {
  method: Method
  url: string
  headers: Record<string, string>
  body?: unknown
  walletSignature?: {accountId?: string; ifAsked?: boolean}
}

/**
 * --dry-run: the request exactly as the transport would send it (with `key`), credentials and secret
 * fields redacted. Bytes (a file upload, a raw body) are shown by size and SHA-256: the description is
 * what `svc mcp` binds a plan to (api/planned.ts), so a file changed after planning is another request.
 */
export function describeRequest(opts: ClientOptions, req: RequestOptions, key: string | undefined): DescribedRequest {
  const upload = req.upload
  const body = upload
    ? {
        ...definedFields(upload.fields),
        file: `${upload.file.name} (${upload.file.type}, ${bytesOf(upload.file.bytes)})`,
      }
    : req.rawBody
      ? bytesOf(req.rawBody)
      : req.body
  // A multipart boundary is drawn when the body is encoded, at send time.
  const headers = requestHeaders(
    opts,
    req,
    key,
    req.body !== undefined,
    upload ? 'multipart/form-data' : undefined,
    true,
  )
  return {
    method: req.method,
    url: requestUrl(opts.baseUrl, req.path, req.query),
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, hideCredential(k, v)])),
    ...(body !== undefined ? {body: redact(body)} : {}),
    ...(req.walletSignature ? {walletSignature: req.walletSignature} : {}),
  }
}

function bytesOf(bytes: Uint8Array): string {
  // node:crypto on use only: a command that sends no file does not load it.
  const {createHash} = process.getBuiltinModule('node:crypto')
  return `${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')}`
}

function definedFields(fields: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined))
}
